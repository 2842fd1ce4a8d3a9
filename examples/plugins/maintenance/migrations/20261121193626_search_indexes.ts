import { Migration } from 'patchbay';

export class MaintenanceSearchIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "maintenance_window_name_trgm" on "maintenance_window" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "maintenance_window_description_trgm" on "maintenance_window" using gin ("description" gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "maintenance_window_name_trgm";`);
    this.addSql(`drop index "maintenance_window_description_trgm";`);
  }
}
