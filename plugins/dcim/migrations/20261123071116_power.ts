import { Migration } from 'patchbay';

export class DcimPowerMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "dcim_powerpanel" ("id" serial primary key, "site_id" int not null, "location_id" int null, "name" varchar(100) not null, "description" varchar(200) not null default '', "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "dcim_powerpanel_site_id_idx" on "dcim_powerpanel" ("site_id");`);
    this.addSql(`create index "dcim_powerpanel_location_id_idx" on "dcim_powerpanel" ("location_id");`);
    this.addSql(`create index "dcim_powerpanel_name_trgm" on "dcim_powerpanel" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "dcim_powerpanel_description_trgm" on "dcim_powerpanel" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "dcim_powerpanel" add constraint "dcim_powerpanel_site_id_name_uniq0" unique ("site_id", "name");`);
    this.addSql(`create table "dcim_powerfeed" ("id" serial primary key, "power_panel_id" int not null, "rack_id" int null, "name" varchar(100) not null, "status" varchar(50) not null default 'active', "type" varchar(50) not null default 'primary', "supply" varchar(50) not null default 'ac', "phase" varchar(50) not null default 'single-phase', "voltage" integer not null default 120, "amperage" integer not null default 15, "max_utilization" integer not null default 80, "mark_connected" boolean not null default false, "description" varchar(200) not null default '', "tenant_id" int null, "comments" text not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "dcim_powerfeed_power_panel_id_idx" on "dcim_powerfeed" ("power_panel_id");`);
    this.addSql(`create index "dcim_powerfeed_rack_id_idx" on "dcim_powerfeed" ("rack_id");`);
    this.addSql(`create index "dcim_powerfeed_tenant_id_idx" on "dcim_powerfeed" ("tenant_id");`);
    this.addSql(`alter table "dcim_powerfeed" add constraint "dcim_powerfeed_power_panel_id_name_uniq0" unique ("power_panel_id", "name");`);
    this.addSql(`alter table "dcim_powerpanel" add constraint "dcim_powerpanel_site_id_foreign" foreign key ("site_id") references "dcim_site" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_powerpanel" add constraint "dcim_powerpanel_location_id_foreign" foreign key ("location_id") references "dcim_location" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_powerfeed" add constraint "dcim_powerfeed_power_panel_id_foreign" foreign key ("power_panel_id") references "dcim_powerpanel" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_powerfeed" add constraint "dcim_powerfeed_rack_id_foreign" foreign key ("rack_id") references "dcim_rack" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "dcim_powerfeed" add constraint "dcim_powerfeed_tenant_id_foreign" foreign key ("tenant_id") references "tenancy_tenant" ("id") on update cascade on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "dcim_powerfeed" drop constraint "dcim_powerfeed_power_panel_id_foreign";`);
    this.addSql(`drop table if exists "dcim_powerfeed" cascade;`);
    this.addSql(`drop table if exists "dcim_powerpanel" cascade;`);
  }
}
