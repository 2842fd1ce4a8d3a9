import { Migration } from 'patchbay';

export class IpamVlansMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "ipam_vlangroup" ("id" serial primary key, "name" varchar(100) not null, "slug" varchar(100) not null, "scope_type_id" int null, "scope_id" integer null, "vid_ranges" jsonb not null, "tenant_id" int null, "description" varchar(200) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "ipam_vlangroup_scope_id_index" on "ipam_vlangroup" ("scope_id");`);
    this.addSql(`create index "ipam_vlangroup_scope_type_id_idx" on "ipam_vlangroup" ("scope_type_id");`);
    this.addSql(`create index "ipam_vlangroup_tenant_id_idx" on "ipam_vlangroup" ("tenant_id");`);
    this.addSql(`create index "ipam_vlangroup_name_trgm" on "ipam_vlangroup" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "ipam_vlangroup_description_trgm" on "ipam_vlangroup" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "ipam_vlangroup" add constraint "ipam_vlangroup_scope_type_id_scope_id_name_uniq0" unique ("scope_type_id", "scope_id", "name");`);
    this.addSql(`alter table "ipam_vlangroup" add constraint "ipam_vlangroup_scope_type_id_scope_id_slug_uniq1" unique ("scope_type_id", "scope_id", "slug");`);
    this.addSql(`create unique index "ipam_vlangroup_name_null_uniq2" on "ipam_vlangroup" ("name") where "scope_type_id" is null and "scope_id" is null;`);
    this.addSql(`create unique index "ipam_vlangroup_slug_null_uniq3" on "ipam_vlangroup" ("slug") where "scope_type_id" is null and "scope_id" is null;`);
    this.addSql(`create table "ipam_vlan" ("id" serial primary key, "site_id" int null, "group_id" int null, "vid" integer not null, "name" varchar(64) not null, "tenant_id" int null, "status" varchar(50) not null default 'active', "role_id" int null, "description" varchar(200) not null default '', "qinq_role" varchar(50) null, "qinq_svlan_id" int null, "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "ipam_vlan_site_id_idx" on "ipam_vlan" ("site_id");`);
    this.addSql(`create index "ipam_vlan_group_id_idx" on "ipam_vlan" ("group_id");`);
    this.addSql(`create index "ipam_vlan_tenant_id_idx" on "ipam_vlan" ("tenant_id");`);
    this.addSql(`create index "ipam_vlan_role_id_idx" on "ipam_vlan" ("role_id");`);
    this.addSql(`create index "ipam_vlan_qinq_svlan_id_idx" on "ipam_vlan" ("qinq_svlan_id");`);
    this.addSql(`create index "ipam_vlan_name_trgm" on "ipam_vlan" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "ipam_vlan_description_trgm" on "ipam_vlan" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "ipam_vlan" add constraint "ipam_vlan_group_id_vid_uniq0" unique ("group_id", "vid");`);
    this.addSql(`alter table "ipam_vlan" add constraint "ipam_vlan_group_id_name_uniq1" unique ("group_id", "name");`);
    this.addSql(`alter table "ipam_vlan" add constraint "ipam_vlan_qinq_svlan_id_vid_uniq2" unique ("qinq_svlan_id", "vid");`);
    this.addSql(`alter table "ipam_vlan" add constraint "ipam_vlan_qinq_svlan_id_name_uniq3" unique ("qinq_svlan_id", "name");`);
    this.addSql(`alter table "ipam_vlangroup" add constraint "ipam_vlangroup_scope_type_id_foreign" foreign key ("scope_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "ipam_vlangroup" add constraint "ipam_vlangroup_tenant_id_foreign" foreign key ("tenant_id") references "tenancy_tenant" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "ipam_vlan" add constraint "ipam_vlan_site_id_foreign" foreign key ("site_id") references "dcim_site" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "ipam_vlan" add constraint "ipam_vlan_group_id_foreign" foreign key ("group_id") references "ipam_vlangroup" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "ipam_vlan" add constraint "ipam_vlan_tenant_id_foreign" foreign key ("tenant_id") references "tenancy_tenant" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "ipam_vlan" add constraint "ipam_vlan_role_id_foreign" foreign key ("role_id") references "ipam_role" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "ipam_vlan" add constraint "ipam_vlan_qinq_svlan_id_foreign" foreign key ("qinq_svlan_id") references "ipam_vlan" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "ipam_prefix" add column "vlan_id" int null;`);
    this.addSql(`alter table "ipam_prefix" add constraint "ipam_prefix_vlan_id_foreign" foreign key ("vlan_id") references "ipam_vlan" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "ipam_prefix_vlan_id_idx" on "ipam_prefix" ("vlan_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ipam_vlan" drop constraint "ipam_vlan_group_id_foreign";`);
    this.addSql(`alter table "ipam_vlan" drop constraint "ipam_vlan_qinq_svlan_id_foreign";`);
    this.addSql(`alter table "ipam_prefix" drop constraint "ipam_prefix_vlan_id_foreign";`);
    this.addSql(`drop index "ipam_prefix_vlan_id_idx";`);
    this.addSql(`alter table "ipam_prefix" drop column "vlan_id";`);
    this.addSql(`drop table if exists "ipam_vlan" cascade;`);
    this.addSql(`drop table if exists "ipam_vlangroup" cascade;`);
  }
}
