import { Migration } from 'patchbay';

export class MaintenanceInitialMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "maintenance_window" ("id" serial primary key, "name" varchar(100) not null, "status" varchar(50) not null default 'scheduled', "starts" timestamptz not null, "ends" timestamptz null, "tenant_id" int null, "impact" integer not null default 1, "notify" boolean not null default true, "description" varchar(200) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "maintenance_window_tenant_id_idx" on "maintenance_window" ("tenant_id");`);
    this.addSql(`alter table "maintenance_window" add constraint "maintenance_window_name_uniq0" unique ("name");`);
    this.addSql(`alter table "maintenance_window" add constraint "maintenance_window_tenant_id_foreign" foreign key ("tenant_id") references "tenancy_tenant" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "maintenance_window" cascade;`);
  }
}
