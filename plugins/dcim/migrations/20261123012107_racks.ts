import { Migration } from 'patchbay';

export class DcimRacksMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "dcim_racktype" ("id" serial primary key, "manufacturer_id" int not null, "model" varchar(100) not null, "slug" varchar(100) not null, "description" varchar(200) not null default '', "form_factor" varchar(50) null, "width" integer not null default 19, "u_height" integer not null default 42, "starting_unit" integer not null default 1, "desc_units" boolean not null default false, "outer_width" integer null, "outer_height" integer null, "outer_depth" integer null, "outer_unit" varchar(50) null, "weight" numeric(8,2) null, "max_weight" integer null, "weight_unit" varchar(50) null, "mounting_depth" integer null, "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "dcim_racktype_manufacturer_id_idx" on "dcim_racktype" ("manufacturer_id");`);
    this.addSql(`create index "dcim_racktype_model_trgm" on "dcim_racktype" using gin ("model" gin_trgm_ops);`);
    this.addSql(`create index "dcim_racktype_description_trgm" on "dcim_racktype" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "dcim_racktype_comments_trgm" on "dcim_racktype" using gin ("comments" gin_trgm_ops);`);
    this.addSql(`alter table "dcim_racktype" add constraint "dcim_racktype_slug_uniq0" unique ("slug");`);
    this.addSql(`alter table "dcim_racktype" add constraint "dcim_racktype_manufacturer_id_model_uniq1" unique ("manufacturer_id", "model");`);
    this.addSql(`alter table "dcim_racktype" add constraint "dcim_racktype_manufacturer_id_slug_uniq2" unique ("manufacturer_id", "slug");`);
    this.addSql(`create table "dcim_rack" ("id" serial primary key, "name" varchar(100) not null, "facility_id" varchar(50) null, "site_id" int not null, "location_id" int null, "tenant_id" int null, "status" varchar(50) not null default 'active', "role_id" int null, "serial" varchar(50) not null default '', "asset_tag" varchar(50) null, "rack_type_id" int null, "form_factor" varchar(50) null, "width" integer not null default 19, "u_height" integer not null default 42, "starting_unit" integer not null default 1, "desc_units" boolean not null default false, "outer_width" integer null, "outer_height" integer null, "outer_depth" integer null, "outer_unit" varchar(50) null, "weight" numeric(8,2) null, "max_weight" integer null, "weight_unit" varchar(50) null, "mounting_depth" integer null, "airflow" varchar(50) null, "description" varchar(200) not null default '', "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "dcim_rack_name_natural" on "dcim_rack" (patchbay_natural("name"));`);
    this.addSql(`create index "dcim_rack_site_id_idx" on "dcim_rack" ("site_id");`);
    this.addSql(`create index "dcim_rack_location_id_idx" on "dcim_rack" ("location_id");`);
    this.addSql(`create index "dcim_rack_tenant_id_idx" on "dcim_rack" ("tenant_id");`);
    this.addSql(`create index "dcim_rack_role_id_idx" on "dcim_rack" ("role_id");`);
    this.addSql(`create index "dcim_rack_rack_type_id_idx" on "dcim_rack" ("rack_type_id");`);
    this.addSql(`create index "dcim_rack_name_trgm" on "dcim_rack" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "dcim_rack_facility_id_trgm" on "dcim_rack" using gin ("facility_id" gin_trgm_ops);`);
    this.addSql(`create index "dcim_rack_serial_trgm" on "dcim_rack" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "dcim_rack_asset_tag_trgm" on "dcim_rack" using gin ("asset_tag" gin_trgm_ops);`);
    this.addSql(`create index "dcim_rack_description_trgm" on "dcim_rack" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "dcim_rack_comments_trgm" on "dcim_rack" using gin ("comments" gin_trgm_ops);`);
    this.addSql(`alter table "dcim_rack" add constraint "dcim_rack_asset_tag_uniq0" unique ("asset_tag");`);
    this.addSql(`alter table "dcim_rack" add constraint "dcim_rack_location_id_name_uniq1" unique ("location_id", "name");`);
    this.addSql(`alter table "dcim_rack" add constraint "dcim_rack_location_id_facility_id_uniq2" unique ("location_id", "facility_id");`);
    this.addSql(`create table "dcim_rackreservation" ("id" serial primary key, "rack_id" int not null, "units" smallint[] not null, "status" varchar(50) not null default 'active', "tenant_id" int null, "user_id" int not null, "description" varchar(200) not null, "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "dcim_rackreservation_rack_id_idx" on "dcim_rackreservation" ("rack_id");`);
    this.addSql(`create index "dcim_rackreservation_tenant_id_idx" on "dcim_rackreservation" ("tenant_id");`);
    this.addSql(`create index "dcim_rackreservation_user_id_idx" on "dcim_rackreservation" ("user_id");`);
    this.addSql(`create index "dcim_rackreservation_description_trgm" on "dcim_rackreservation" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "dcim_racktype" add constraint "dcim_racktype_manufacturer_id_foreign" foreign key ("manufacturer_id") references "dcim_manufacturer" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_rack" add constraint "dcim_rack_site_id_foreign" foreign key ("site_id") references "dcim_site" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_rack" add constraint "dcim_rack_location_id_foreign" foreign key ("location_id") references "dcim_location" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "dcim_rack" add constraint "dcim_rack_tenant_id_foreign" foreign key ("tenant_id") references "tenancy_tenant" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_rack" add constraint "dcim_rack_role_id_foreign" foreign key ("role_id") references "dcim_rackrole" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_rack" add constraint "dcim_rack_rack_type_id_foreign" foreign key ("rack_type_id") references "dcim_racktype" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_rackreservation" add constraint "dcim_rackreservation_rack_id_foreign" foreign key ("rack_id") references "dcim_rack" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dcim_rackreservation" add constraint "dcim_rackreservation_tenant_id_foreign" foreign key ("tenant_id") references "tenancy_tenant" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_rackreservation" add constraint "dcim_rackreservation_user_id_foreign" foreign key ("user_id") references "users_user" ("id") on update cascade on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "dcim_rack" drop constraint "dcim_rack_rack_type_id_foreign";`);
    this.addSql(`alter table "dcim_rackreservation" drop constraint "dcim_rackreservation_rack_id_foreign";`);
    this.addSql(`drop table if exists "dcim_rackreservation" cascade;`);
    this.addSql(`drop table if exists "dcim_rack" cascade;`);
    this.addSql(`drop table if exists "dcim_racktype" cascade;`);
  }
}
