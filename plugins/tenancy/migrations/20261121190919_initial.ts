import { Migration } from 'patchbay';

export class TenancyInitialMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "tenancy_contact" ("id" serial primary key, "name" varchar(100) not null, "title" varchar(100) not null default '', "phone" varchar(50) not null default '', "email" varchar(254) not null default '', "address" varchar(200) not null default '', "link" varchar(200) not null default '', "description" varchar(200) not null default '', "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create table "tenancy_contactgroup" ("id" serial primary key, "name" varchar(100) not null, "slug" varchar(100) not null, "parent_id" int null, "description" varchar(200) not null default '', "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "tenancy_contactgroup_parent_id_idx" on "tenancy_contactgroup" ("parent_id");`);
    this.addSql(`alter table "tenancy_contactgroup" add constraint "tenancy_contactgroup_parent_id_name_uniq0" unique ("parent_id", "name");`);
    this.addSql(`create table "tenancy_contact_groups" ("contact_id" int not null, "contactgroup_id" int not null, constraint "tenancy_contact_groups_pkey" primary key ("contact_id", "contactgroup_id"));`);
    this.addSql(`create table "tenancy_contactrole" ("id" serial primary key, "name" varchar(100) not null, "slug" varchar(100) not null, "description" varchar(200) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`alter table "tenancy_contactrole" add constraint "tenancy_contactrole_name_uniq0" unique ("name");`);
    this.addSql(`alter table "tenancy_contactrole" add constraint "tenancy_contactrole_slug_uniq1" unique ("slug");`);
    this.addSql(`create table "tenancy_contactassignment" ("id" serial primary key, "object_type_id" int not null, "object_id" integer not null, "contact_id" int not null, "role_id" int null, "priority" varchar(50) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "tenancy_contactassignment_object_id_index" on "tenancy_contactassignment" ("object_id");`);
    this.addSql(`create index "tenancy_contactassignment_object_type_id_idx" on "tenancy_contactassignment" ("object_type_id");`);
    this.addSql(`create index "tenancy_contactassignment_contact_id_idx" on "tenancy_contactassignment" ("contact_id");`);
    this.addSql(`create index "tenancy_contactassignment_role_id_idx" on "tenancy_contactassignment" ("role_id");`);
    this.addSql(`alter table "tenancy_contactassignment" add constraint "tenancy_contactassignment_object_type_id_object_id_contact_id_r" unique ("object_type_id", "object_id", "contact_id", "role_id");`);
    this.addSql(`create table "tenancy_tenantgroup" ("id" serial primary key, "name" varchar(100) not null, "slug" varchar(100) not null, "parent_id" int null, "description" varchar(200) not null default '', "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "tenancy_tenantgroup_parent_id_idx" on "tenancy_tenantgroup" ("parent_id");`);
    this.addSql(`alter table "tenancy_tenantgroup" add constraint "tenancy_tenantgroup_name_uniq0" unique ("name");`);
    this.addSql(`alter table "tenancy_tenantgroup" add constraint "tenancy_tenantgroup_slug_uniq1" unique ("slug");`);
    this.addSql(`create table "tenancy_tenant" ("id" serial primary key, "name" varchar(100) not null, "slug" varchar(100) not null, "group_id" int null, "description" varchar(200) not null default '', "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "tenancy_tenant_group_id_idx" on "tenancy_tenant" ("group_id");`);
    this.addSql(`alter table "tenancy_tenant" add constraint "tenancy_tenant_group_id_name_uniq0" unique ("group_id", "name");`);
    this.addSql(`create unique index "tenancy_tenant_name_null_uniq1" on "tenancy_tenant" ("name") where "group_id" is null;`);
    this.addSql(`alter table "tenancy_tenant" add constraint "tenancy_tenant_group_id_slug_uniq2" unique ("group_id", "slug");`);
    this.addSql(`create unique index "tenancy_tenant_slug_null_uniq3" on "tenancy_tenant" ("slug") where "group_id" is null;`);
    this.addSql(`alter table "tenancy_contactgroup" add constraint "tenancy_contactgroup_parent_id_foreign" foreign key ("parent_id") references "tenancy_contactgroup" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "tenancy_contact_groups" add constraint "tenancy_contact_groups_contact_id_foreign" foreign key ("contact_id") references "tenancy_contact" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "tenancy_contact_groups" add constraint "tenancy_contact_groups_contactgroup_id_foreign" foreign key ("contactgroup_id") references "tenancy_contactgroup" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "tenancy_contactassignment" add constraint "tenancy_contactassignment_object_type_id_foreign" foreign key ("object_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "tenancy_contactassignment" add constraint "tenancy_contactassignment_contact_id_foreign" foreign key ("contact_id") references "tenancy_contact" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "tenancy_contactassignment" add constraint "tenancy_contactassignment_role_id_foreign" foreign key ("role_id") references "tenancy_contactrole" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "tenancy_tenantgroup" add constraint "tenancy_tenantgroup_parent_id_foreign" foreign key ("parent_id") references "tenancy_tenantgroup" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "tenancy_tenant" add constraint "tenancy_tenant_group_id_foreign" foreign key ("group_id") references "tenancy_tenantgroup" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "tenancy_contact_groups" drop constraint "tenancy_contact_groups_contact_id_foreign";`);
    this.addSql(`alter table "tenancy_contactassignment" drop constraint "tenancy_contactassignment_contact_id_foreign";`);
    this.addSql(`alter table "tenancy_contactgroup" drop constraint "tenancy_contactgroup_parent_id_foreign";`);
    this.addSql(`alter table "tenancy_contact_groups" drop constraint "tenancy_contact_groups_contactgroup_id_foreign";`);
    this.addSql(`alter table "tenancy_contactassignment" drop constraint "tenancy_contactassignment_role_id_foreign";`);
    this.addSql(`alter table "tenancy_tenantgroup" drop constraint "tenancy_tenantgroup_parent_id_foreign";`);
    this.addSql(`alter table "tenancy_tenant" drop constraint "tenancy_tenant_group_id_foreign";`);
    this.addSql(`drop table if exists "tenancy_tenant" cascade;`);
    this.addSql(`drop table if exists "tenancy_tenantgroup" cascade;`);
    this.addSql(`drop table if exists "tenancy_contactassignment" cascade;`);
    this.addSql(`drop table if exists "tenancy_contactrole" cascade;`);
    this.addSql(`drop table if exists "tenancy_contact_groups" cascade;`);
    this.addSql(`drop table if exists "tenancy_contactgroup" cascade;`);
    this.addSql(`drop table if exists "tenancy_contact" cascade;`);
  }
}
