import { Migration } from 'patchbay';

export class IpamFhrpServicesTranslationMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "ipam_fhrpgroup" ("id" serial primary key, "name" varchar(100) not null default '', "protocol" varchar(50) not null, "group_id" integer not null, "auth_type" varchar(50) null, "auth_key" varchar(255) not null default '', "description" varchar(200) not null default '', "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "ipam_fhrpgroup_name_trgm" on "ipam_fhrpgroup" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "ipam_fhrpgroup_description_trgm" on "ipam_fhrpgroup" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create table "ipam_fhrpgroupassignment" ("id" serial primary key, "group_id" int not null, "interface_type_id" int not null, "interface_id" integer not null, "priority" integer not null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "ipam_fhrpgroupassignment_interface_id_index" on "ipam_fhrpgroupassignment" ("interface_id");`);
    this.addSql(`create index "ipam_fhrpgroupassignment_group_id_idx" on "ipam_fhrpgroupassignment" ("group_id");`);
    this.addSql(`create index "ipam_fhrpgroupassignment_interface_type_id_idx" on "ipam_fhrpgroupassignment" ("interface_type_id");`);
    this.addSql(`alter table "ipam_fhrpgroupassignment" add constraint "ipam_fhrpgroupassignment_interface_type_id_interface_id_group_i" unique ("interface_type_id", "interface_id", "group_id");`);
    this.addSql(`create table "ipam_service" ("id" serial primary key, "parent_object_type_id" int not null, "parent_object_id" integer not null, "name" varchar(100) not null, "protocol" varchar(50) not null, "ports" integer[] not null, "description" varchar(200) not null default '', "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "ipam_service_parent_object_id_index" on "ipam_service" ("parent_object_id");`);
    this.addSql(`create index "ipam_service_parent_object_type_id_idx" on "ipam_service" ("parent_object_type_id");`);
    this.addSql(`create index "ipam_service_name_trgm" on "ipam_service" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "ipam_service_description_trgm" on "ipam_service" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create table "ipam_servicetemplate" ("id" serial primary key, "name" varchar(100) not null, "protocol" varchar(50) not null, "ports" integer[] not null, "description" varchar(200) not null default '', "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "ipam_servicetemplate_name_trgm" on "ipam_servicetemplate" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "ipam_servicetemplate_description_trgm" on "ipam_servicetemplate" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "ipam_servicetemplate" add constraint "ipam_servicetemplate_name_uniq0" unique ("name");`);
    this.addSql(`create table "ipam_vlantranslationpolicy" ("id" serial primary key, "name" varchar(100) not null, "description" varchar(200) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "ipam_vlantranslationpolicy_name_trgm" on "ipam_vlantranslationpolicy" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "ipam_vlantranslationpolicy_description_trgm" on "ipam_vlantranslationpolicy" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "ipam_vlantranslationpolicy" add constraint "ipam_vlantranslationpolicy_name_uniq0" unique ("name");`);
    this.addSql(`create table "ipam_vlantranslationrule" ("id" serial primary key, "policy_id" int not null, "local_vid" integer not null, "remote_vid" integer not null, "description" varchar(200) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "ipam_vlantranslationrule_policy_id_idx" on "ipam_vlantranslationrule" ("policy_id");`);
    this.addSql(`create index "ipam_vlantranslationrule_description_trgm" on "ipam_vlantranslationrule" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "ipam_vlantranslationrule" add constraint "ipam_vlantranslationrule_policy_id_local_vid_uniq0" unique ("policy_id", "local_vid");`);
    this.addSql(`alter table "ipam_vlantranslationrule" add constraint "ipam_vlantranslationrule_policy_id_remote_vid_uniq1" unique ("policy_id", "remote_vid");`);
    this.addSql(`create table "ipam_service_ipaddresses" ("service_id" int not null, "ipaddress_id" int not null, constraint "ipam_service_ipaddresses_pkey" primary key ("service_id", "ipaddress_id"));`);
    this.addSql(`alter table "ipam_fhrpgroupassignment" add constraint "ipam_fhrpgroupassignment_group_id_foreign" foreign key ("group_id") references "ipam_fhrpgroup" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ipam_fhrpgroupassignment" add constraint "ipam_fhrpgroupassignment_interface_type_id_foreign" foreign key ("interface_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "ipam_service" add constraint "ipam_service_parent_object_type_id_foreign" foreign key ("parent_object_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "ipam_vlantranslationrule" add constraint "ipam_vlantranslationrule_policy_id_foreign" foreign key ("policy_id") references "ipam_vlantranslationpolicy" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ipam_service_ipaddresses" add constraint "ipam_service_ipaddresses_service_id_foreign" foreign key ("service_id") references "ipam_service" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ipam_service_ipaddresses" add constraint "ipam_service_ipaddresses_ipaddress_id_foreign" foreign key ("ipaddress_id") references "ipam_ipaddress" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ipam_fhrpgroupassignment" drop constraint "ipam_fhrpgroupassignment_group_id_foreign";`);
    this.addSql(`alter table "ipam_service_ipaddresses" drop constraint "ipam_service_ipaddresses_service_id_foreign";`);
    this.addSql(`alter table "ipam_vlantranslationrule" drop constraint "ipam_vlantranslationrule_policy_id_foreign";`);
    this.addSql(`drop table if exists "ipam_service_ipaddresses" cascade;`);
    this.addSql(`drop table if exists "ipam_vlantranslationrule" cascade;`);
    this.addSql(`drop table if exists "ipam_vlantranslationpolicy" cascade;`);
    this.addSql(`drop table if exists "ipam_servicetemplate" cascade;`);
    this.addSql(`drop table if exists "ipam_service" cascade;`);
    this.addSql(`drop table if exists "ipam_fhrpgroupassignment" cascade;`);
    this.addSql(`drop table if exists "ipam_fhrpgroup" cascade;`);
  }
}
