import { Migration } from 'patchbay';

export class DcimCablingMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "dcim_cablepath" ("id" serial primary key, "path" jsonb not null, "is_active" boolean not null default false, "is_complete" boolean not null default false, "is_split" boolean not null default false, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create table "dcim_cablepathnode" ("id" serial primary key, "path_id" int not null, "node" varchar(120) not null, "origin" boolean not null default false, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "dcim_cablepathnode_path_id_idx" on "dcim_cablepathnode" ("path_id");`);
    this.addSql(`create index "dcim_cablepathnode_node_idx" on "dcim_cablepathnode" ("node");`);
    this.addSql(`alter table "dcim_cablepathnode" add constraint "dcim_cablepathnode_path_id_node_uniq0" unique ("path_id", "node");`);
    this.addSql(`create table "dcim_cable" ("id" serial primary key, "type" varchar(50) null, "status" varchar(50) not null default 'connected', "tenant_id" int null, "label" varchar(100) not null default '', "color" varchar(6) not null default '', "length" numeric(8,2) null, "length_unit" varchar(50) null, "description" varchar(200) not null default '', "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "dcim_cable_tenant_id_idx" on "dcim_cable" ("tenant_id");`);
    this.addSql(`create index "dcim_cable_label_trgm" on "dcim_cable" using gin ("label" gin_trgm_ops);`);
    this.addSql(`create index "dcim_cable_description_trgm" on "dcim_cable" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create table "dcim_cabletermination" ("id" serial primary key, "cable_id" int not null, "cable_end" varchar(50) not null, "termination_type_id" int not null, "termination_id" integer not null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "dcim_cabletermination_termination_id_index" on "dcim_cabletermination" ("termination_id");`);
    this.addSql(`create index "dcim_cabletermination_cable_id_idx" on "dcim_cabletermination" ("cable_id");`);
    this.addSql(`create index "dcim_cabletermination_termination_type_id_idx" on "dcim_cabletermination" ("termination_type_id");`);
    this.addSql(`alter table "dcim_cabletermination" add constraint "dcim_cabletermination_termination_type_id_termination_id_uniq0" unique ("termination_type_id", "termination_id");`);
    this.addSql(`alter table "dcim_cablepathnode" add constraint "dcim_cablepathnode_path_id_foreign" foreign key ("path_id") references "dcim_cablepath" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dcim_cable" add constraint "dcim_cable_tenant_id_foreign" foreign key ("tenant_id") references "tenancy_tenant" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_cabletermination" add constraint "dcim_cabletermination_cable_id_foreign" foreign key ("cable_id") references "dcim_cable" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dcim_cabletermination" add constraint "dcim_cabletermination_termination_type_id_foreign" foreign key ("termination_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_powerfeed" add column "cable_id" int null, add column "cable_end" varchar(1) null;`);
    this.addSql(`alter table "dcim_powerfeed" add constraint "dcim_powerfeed_cable_id_foreign" foreign key ("cable_id") references "dcim_cable" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "dcim_powerfeed_cable_id_idx" on "dcim_powerfeed" ("cable_id");`);
    this.addSql(`alter table "dcim_rearport" add column "cable_id" int null, add column "cable_end" varchar(1) null;`);
    this.addSql(`alter table "dcim_rearport" add constraint "dcim_rearport_cable_id_foreign" foreign key ("cable_id") references "dcim_cable" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "dcim_rearport_cable_id_idx" on "dcim_rearport" ("cable_id");`);
    this.addSql(`alter table "dcim_powerport" add column "cable_id" int null, add column "cable_end" varchar(1) null;`);
    this.addSql(`alter table "dcim_powerport" add constraint "dcim_powerport_cable_id_foreign" foreign key ("cable_id") references "dcim_cable" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "dcim_powerport_cable_id_idx" on "dcim_powerport" ("cable_id");`);
    this.addSql(`alter table "dcim_poweroutlet" add column "cable_id" int null, add column "cable_end" varchar(1) null;`);
    this.addSql(`alter table "dcim_poweroutlet" add constraint "dcim_poweroutlet_cable_id_foreign" foreign key ("cable_id") references "dcim_cable" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "dcim_poweroutlet_cable_id_idx" on "dcim_poweroutlet" ("cable_id");`);
    this.addSql(`alter table "dcim_interface" add column "cable_id" int null, add column "cable_end" varchar(1) null;`);
    this.addSql(`alter table "dcim_interface" add constraint "dcim_interface_cable_id_foreign" foreign key ("cable_id") references "dcim_cable" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "dcim_interface_cable_id_idx" on "dcim_interface" ("cable_id");`);
    this.addSql(`alter table "dcim_frontport" add column "cable_id" int null, add column "cable_end" varchar(1) null;`);
    this.addSql(`alter table "dcim_frontport" add constraint "dcim_frontport_cable_id_foreign" foreign key ("cable_id") references "dcim_cable" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "dcim_frontport_cable_id_idx" on "dcim_frontport" ("cable_id");`);
    this.addSql(`alter table "dcim_consoleserverport" add column "cable_id" int null, add column "cable_end" varchar(1) null;`);
    this.addSql(`alter table "dcim_consoleserverport" add constraint "dcim_consoleserverport_cable_id_foreign" foreign key ("cable_id") references "dcim_cable" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "dcim_consoleserverport_cable_id_idx" on "dcim_consoleserverport" ("cable_id");`);
    this.addSql(`alter table "dcim_consoleport" add column "cable_id" int null, add column "cable_end" varchar(1) null;`);
    this.addSql(`alter table "dcim_consoleport" add constraint "dcim_consoleport_cable_id_foreign" foreign key ("cable_id") references "dcim_cable" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "dcim_consoleport_cable_id_idx" on "dcim_consoleport" ("cable_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "dcim_cablepathnode" drop constraint "dcim_cablepathnode_path_id_foreign";`);
    this.addSql(`alter table "dcim_powerfeed" drop constraint "dcim_powerfeed_cable_id_foreign";`);
    this.addSql(`alter table "dcim_cabletermination" drop constraint "dcim_cabletermination_cable_id_foreign";`);
    this.addSql(`alter table "dcim_rearport" drop constraint "dcim_rearport_cable_id_foreign";`);
    this.addSql(`alter table "dcim_powerport" drop constraint "dcim_powerport_cable_id_foreign";`);
    this.addSql(`alter table "dcim_poweroutlet" drop constraint "dcim_poweroutlet_cable_id_foreign";`);
    this.addSql(`alter table "dcim_interface" drop constraint "dcim_interface_cable_id_foreign";`);
    this.addSql(`alter table "dcim_frontport" drop constraint "dcim_frontport_cable_id_foreign";`);
    this.addSql(`alter table "dcim_consoleserverport" drop constraint "dcim_consoleserverport_cable_id_foreign";`);
    this.addSql(`alter table "dcim_consoleport" drop constraint "dcim_consoleport_cable_id_foreign";`);
    this.addSql(`drop index "dcim_consoleport_cable_id_idx";`);
    this.addSql(`alter table "dcim_consoleport" drop column "cable_id", drop column "cable_end";`);
    this.addSql(`drop index "dcim_consoleserverport_cable_id_idx";`);
    this.addSql(`alter table "dcim_consoleserverport" drop column "cable_id", drop column "cable_end";`);
    this.addSql(`drop index "dcim_frontport_cable_id_idx";`);
    this.addSql(`alter table "dcim_frontport" drop column "cable_id", drop column "cable_end";`);
    this.addSql(`drop index "dcim_interface_cable_id_idx";`);
    this.addSql(`alter table "dcim_interface" drop column "cable_id", drop column "cable_end";`);
    this.addSql(`drop index "dcim_powerfeed_cable_id_idx";`);
    this.addSql(`alter table "dcim_powerfeed" drop column "cable_id", drop column "cable_end";`);
    this.addSql(`drop index "dcim_poweroutlet_cable_id_idx";`);
    this.addSql(`alter table "dcim_poweroutlet" drop column "cable_id", drop column "cable_end";`);
    this.addSql(`drop index "dcim_powerport_cable_id_idx";`);
    this.addSql(`alter table "dcim_powerport" drop column "cable_id", drop column "cable_end";`);
    this.addSql(`drop index "dcim_rearport_cable_id_idx";`);
    this.addSql(`alter table "dcim_rearport" drop column "cable_id", drop column "cable_end";`);
    this.addSql(`drop table if exists "dcim_cabletermination" cascade;`);
    this.addSql(`drop table if exists "dcim_cable" cascade;`);
    this.addSql(`drop table if exists "dcim_cablepathnode" cascade;`);
    this.addSql(`drop table if exists "dcim_cablepath" cascade;`);
  }
}
