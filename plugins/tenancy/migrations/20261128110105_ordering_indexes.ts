import { Migration } from 'patchbay';

export class TenancyOrderingIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "tenancy_contact_ordering" on "tenancy_contact" ("name", "id");`);
    this.addSql(`create index "tenancy_contactgroup_ordering" on "tenancy_contactgroup" ("name", "id");`);
    this.addSql(`create index "tenancy_tenant_ordering" on "tenancy_tenant" ("name", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "tenancy_contact_ordering";`);
    this.addSql(`drop index "tenancy_contactgroup_ordering";`);
    this.addSql(`drop index "tenancy_tenant_ordering";`);
  }
}
