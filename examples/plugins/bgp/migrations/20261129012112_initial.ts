import { Migration } from 'patchbay';

export class BgpInitialMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "bgp_community" ("id" serial primary key, "value" varchar(64) not null, "description" varchar(200) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "bgp_community_value_trgm" on "bgp_community" using gin ("value" gin_trgm_ops);`);
    this.addSql(`create index "bgp_community_description_trgm" on "bgp_community" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "bgp_community" add constraint "bgp_community_value_uniq0" unique ("value");`);
    this.addSql(`create table "bgp_routingpolicy" ("id" serial primary key, "name" varchar(100) not null, "name_natural" text generated always as (patchbay_natural("name")) stored null, "weight" integer not null default 1000, "description" varchar(200) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "bgp_routingpolicy_name_natural_idx" on "bgp_routingpolicy" ("name_natural");`);
    this.addSql(`create index "bgp_routingpolicy_name_trgm" on "bgp_routingpolicy" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "bgp_routingpolicy_description_trgm" on "bgp_routingpolicy" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "bgp_routingpolicy_ordering" on "bgp_routingpolicy" ("weight", "name_natural", "id");`);
    this.addSql(`alter table "bgp_routingpolicy" add constraint "bgp_routingpolicy_name_uniq0" unique ("name");`);
    this.addSql(`create table "bgp_session" ("id" serial primary key, "name" varchar(100) not null, "name_natural" text generated always as (patchbay_natural("name")) stored null, "status" varchar(50) not null, "device_id" int not null, "local_address_id" int null, "remote_address_id" int not null, "remote_as" bigint not null, "description" varchar(200) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "bgp_session_name_natural_idx" on "bgp_session" ("name_natural");`);
    this.addSql(`create index "bgp_session_device_id_idx" on "bgp_session" ("device_id");`);
    this.addSql(`create index "bgp_session_local_address_id_idx" on "bgp_session" ("local_address_id");`);
    this.addSql(`create index "bgp_session_remote_address_id_idx" on "bgp_session" ("remote_address_id");`);
    this.addSql(`create index "bgp_session_name_trgm" on "bgp_session" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "bgp_session_description_trgm" on "bgp_session" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "bgp_session" add constraint "bgp_session_device_id_name_uniq0" unique ("device_id", "name");`);
    this.addSql(`create table "bgp_session_import_policies" ("session_id" int not null, "routingpolicy_id" int not null, constraint "bgp_session_import_policies_pkey" primary key ("session_id", "routingpolicy_id"));`);
    this.addSql(`create table "bgp_session_export_policies" ("session_id" int not null, "routingpolicy_id" int not null, constraint "bgp_session_export_policies_pkey" primary key ("session_id", "routingpolicy_id"));`);
    this.addSql(`create table "bgp_session_communities" ("session_id" int not null, "community_id" int not null, constraint "bgp_session_communities_pkey" primary key ("session_id", "community_id"));`);
    this.addSql(`alter table "bgp_session" add constraint "bgp_session_device_id_foreign" foreign key ("device_id") references "dcim_device" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "bgp_session" add constraint "bgp_session_local_address_id_foreign" foreign key ("local_address_id") references "ipam_ipaddress" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "bgp_session" add constraint "bgp_session_remote_address_id_foreign" foreign key ("remote_address_id") references "ipam_ipaddress" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "bgp_session_import_policies" add constraint "bgp_session_import_policies_session_id_foreign" foreign key ("session_id") references "bgp_session" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "bgp_session_import_policies" add constraint "bgp_session_import_policies_routingpolicy_id_foreign" foreign key ("routingpolicy_id") references "bgp_routingpolicy" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "bgp_session_export_policies" add constraint "bgp_session_export_policies_session_id_foreign" foreign key ("session_id") references "bgp_session" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "bgp_session_export_policies" add constraint "bgp_session_export_policies_routingpolicy_id_foreign" foreign key ("routingpolicy_id") references "bgp_routingpolicy" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "bgp_session_communities" add constraint "bgp_session_communities_session_id_foreign" foreign key ("session_id") references "bgp_session" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "bgp_session_communities" add constraint "bgp_session_communities_community_id_foreign" foreign key ("community_id") references "bgp_community" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "bgp_session_communities" drop constraint "bgp_session_communities_community_id_foreign";`);
    this.addSql(`alter table "bgp_session_import_policies" drop constraint "bgp_session_import_policies_routingpolicy_id_foreign";`);
    this.addSql(`alter table "bgp_session_export_policies" drop constraint "bgp_session_export_policies_routingpolicy_id_foreign";`);
    this.addSql(`alter table "bgp_session_import_policies" drop constraint "bgp_session_import_policies_session_id_foreign";`);
    this.addSql(`alter table "bgp_session_export_policies" drop constraint "bgp_session_export_policies_session_id_foreign";`);
    this.addSql(`alter table "bgp_session_communities" drop constraint "bgp_session_communities_session_id_foreign";`);
    this.addSql(`drop table if exists "bgp_session_communities" cascade;`);
    this.addSql(`drop table if exists "bgp_session_export_policies" cascade;`);
    this.addSql(`drop table if exists "bgp_session_import_policies" cascade;`);
    this.addSql(`drop table if exists "bgp_session" cascade;`);
    this.addSql(`drop table if exists "bgp_routingpolicy" cascade;`);
    this.addSql(`drop table if exists "bgp_community" cascade;`);
  }
}
