import { Migration } from 'patchbay';

/**
 * A nullable foreign key's index leaves out its nulls, and one that leads a unique is dropped (the unique's index
 * serves it): inserts of rows whose keys are null skip those indexes.
 */
export class MaintenancePartialForeignKeyIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "maintenance_window_tenant_id_idx";`);
    this.addSql(`create index "maintenance_window_tenant_id_idx" on "maintenance_window" ("tenant_id") where "tenant_id" is not null;`);
    this.addSql(`drop index "maintenance_task_window_id_idx";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "maintenance_window_tenant_id_idx";`);
    this.addSql(`create index "maintenance_window_tenant_id_idx" on "maintenance_window" ("tenant_id");`);
    this.addSql(`create index "maintenance_task_window_id_idx" on "maintenance_task" ("window_id");`);
  }
}
