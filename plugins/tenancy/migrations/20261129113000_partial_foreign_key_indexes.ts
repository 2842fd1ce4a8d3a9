import { Migration } from 'patchbay';

/**
 * A nullable foreign key's index leaves out its nulls, and one that leads a unique is dropped (the unique's index
 * serves it): inserts of rows whose keys are null skip those indexes.
 */
export class TenancyPartialForeignKeyIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "tenancy_tenantgroup_parent_id_idx";`);
    this.addSql(`create index "tenancy_tenantgroup_parent_id_idx" on "tenancy_tenantgroup" ("parent_id") where "parent_id" is not null;`);
    this.addSql(`drop index "tenancy_tenant_group_id_idx";`);
    this.addSql(`drop index "tenancy_contactgroup_parent_id_idx";`);
    this.addSql(`drop index "tenancy_contactassignment_object_type_id_idx";`);
    this.addSql(`drop index "tenancy_contactassignment_role_id_idx";`);
    this.addSql(`create index "tenancy_contactassignment_role_id_idx" on "tenancy_contactassignment" ("role_id") where "role_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "tenancy_tenantgroup_parent_id_idx";`);
    this.addSql(`create index "tenancy_tenantgroup_parent_id_idx" on "tenancy_tenantgroup" ("parent_id");`);
    this.addSql(`create index "tenancy_tenant_group_id_idx" on "tenancy_tenant" ("group_id");`);
    this.addSql(`create index "tenancy_contactgroup_parent_id_idx" on "tenancy_contactgroup" ("parent_id");`);
    this.addSql(`create index "tenancy_contactassignment_object_type_id_idx" on "tenancy_contactassignment" ("object_type_id");`);
    this.addSql(`drop index "tenancy_contactassignment_role_id_idx";`);
    this.addSql(`create index "tenancy_contactassignment_role_id_idx" on "tenancy_contactassignment" ("role_id");`);
  }
}
