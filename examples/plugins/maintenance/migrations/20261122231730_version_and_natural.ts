import { Migration } from '@mikro-orm/migrations';

export class MaintenanceVersionAndNaturalMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "maintenance_window" add column "target_version" varchar(32) null;`);
    this.addSql(`create index "maintenance_window_name_natural" on "maintenance_window" (patchbay_natural("name"));`);
    this.addSql(`create index "maintenance_window_target_version_numbers" on "maintenance_window" ((string_to_array("target_version", '.')::int[]));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "maintenance_window_name_natural";`);
    this.addSql(`drop index "maintenance_window_target_version_numbers";`);
    this.addSql(`alter table "maintenance_window" drop column "target_version";`);
  }
}
