import { Migration } from 'patchbay';

export class MaintenanceNaturalKeysMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "maintenance_window_name_natural";`);
    this.addSql(`alter table "maintenance_window" add column "name_natural" text generated always as (patchbay_natural("name")) stored null;`);
    this.addSql(`create index "maintenance_window_name_natural_idx" on "maintenance_window" ("name_natural");`);
    this.addSql(`drop index "maintenance_task_name_natural";`);
    this.addSql(`alter table "maintenance_task" add column "name_natural" text generated always as (patchbay_natural("name")) stored null;`);
    this.addSql(`create index "maintenance_task_name_natural_idx" on "maintenance_task" ("name_natural");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "maintenance_task_name_natural_idx";`);
    this.addSql(`alter table "maintenance_task" drop column "name_natural";`);
    this.addSql(`drop index "maintenance_window_name_natural_idx";`);
    this.addSql(`alter table "maintenance_window" drop column "name_natural";`);
  }
}
