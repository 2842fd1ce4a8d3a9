import { Migration } from 'patchbay';

export class MaintenanceOrderingIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "maintenance_window_ordering" on "maintenance_window" ("starts", "name_natural", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "maintenance_window_ordering";`);
  }
}
