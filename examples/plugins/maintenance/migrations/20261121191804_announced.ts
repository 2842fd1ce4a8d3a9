import { Migration } from 'patchbay';

export class MaintenanceAnnouncedMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "maintenance_window" add column "announced" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "maintenance_window" drop column "announced";`);
  }
}
