import { Migration } from 'patchbay';

export class TenancySearchIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "tenancy_contact_name_trgm" on "tenancy_contact" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contact_title_trgm" on "tenancy_contact" using gin ("title" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contact_phone_trgm" on "tenancy_contact" using gin ("phone" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contact_email_trgm" on "tenancy_contact" using gin ("email" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contact_address_trgm" on "tenancy_contact" using gin ("address" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contact_link_trgm" on "tenancy_contact" using gin ("link" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contact_description_trgm" on "tenancy_contact" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contact_comments_trgm" on "tenancy_contact" using gin ("comments" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contactgroup_name_trgm" on "tenancy_contactgroup" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contactgroup_slug_trgm" on "tenancy_contactgroup" using gin ("slug" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contactgroup_description_trgm" on "tenancy_contactgroup" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contactgroup_comments_trgm" on "tenancy_contactgroup" using gin ("comments" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contactrole_name_trgm" on "tenancy_contactrole" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contactrole_slug_trgm" on "tenancy_contactrole" using gin ("slug" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_contactrole_description_trgm" on "tenancy_contactrole" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_tenantgroup_name_trgm" on "tenancy_tenantgroup" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_tenantgroup_slug_trgm" on "tenancy_tenantgroup" using gin ("slug" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_tenantgroup_description_trgm" on "tenancy_tenantgroup" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_tenantgroup_comments_trgm" on "tenancy_tenantgroup" using gin ("comments" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_tenant_name_trgm" on "tenancy_tenant" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_tenant_slug_trgm" on "tenancy_tenant" using gin ("slug" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_tenant_description_trgm" on "tenancy_tenant" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "tenancy_tenant_comments_trgm" on "tenancy_tenant" using gin ("comments" gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "tenancy_contact_name_trgm";`);
    this.addSql(`drop index "tenancy_contact_title_trgm";`);
    this.addSql(`drop index "tenancy_contact_phone_trgm";`);
    this.addSql(`drop index "tenancy_contact_email_trgm";`);
    this.addSql(`drop index "tenancy_contact_address_trgm";`);
    this.addSql(`drop index "tenancy_contact_link_trgm";`);
    this.addSql(`drop index "tenancy_contact_description_trgm";`);
    this.addSql(`drop index "tenancy_contact_comments_trgm";`);
    this.addSql(`drop index "tenancy_contactgroup_name_trgm";`);
    this.addSql(`drop index "tenancy_contactgroup_slug_trgm";`);
    this.addSql(`drop index "tenancy_contactgroup_description_trgm";`);
    this.addSql(`drop index "tenancy_contactgroup_comments_trgm";`);
    this.addSql(`drop index "tenancy_contactrole_name_trgm";`);
    this.addSql(`drop index "tenancy_contactrole_slug_trgm";`);
    this.addSql(`drop index "tenancy_contactrole_description_trgm";`);
    this.addSql(`drop index "tenancy_tenant_name_trgm";`);
    this.addSql(`drop index "tenancy_tenant_slug_trgm";`);
    this.addSql(`drop index "tenancy_tenant_description_trgm";`);
    this.addSql(`drop index "tenancy_tenant_comments_trgm";`);
    this.addSql(`drop index "tenancy_tenantgroup_name_trgm";`);
    this.addSql(`drop index "tenancy_tenantgroup_slug_trgm";`);
    this.addSql(`drop index "tenancy_tenantgroup_description_trgm";`);
    this.addSql(`drop index "tenancy_tenantgroup_comments_trgm";`);
  }
}
