import { Migration } from 'patchbay';

export class MaintenanceVersionsTasksMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "maintenance_task" ("id" serial primary key, "window_id" int not null, "name" varchar(100) not null, "done" boolean not null default false, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "maintenance_task_window_id_idx" on "maintenance_task" ("window_id");`);
    this.addSql(`create index "maintenance_task_name_natural" on "maintenance_task" (patchbay_natural("name"));`);
    this.addSql(`create index "maintenance_task_name_trgm" on "maintenance_task" using gin ("name" gin_trgm_ops);`);
    this.addSql(`alter table "maintenance_task" add constraint "maintenance_task_window_id_name_uniq0" unique ("window_id", "name");`);
    this.addSql(`alter table "maintenance_task" add constraint "maintenance_task_window_id_foreign" foreign key ("window_id") references "maintenance_window" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "maintenance_window" add column "target_version" varchar(32) null, add column "duration_minutes" integer null;`);
    this.addSql(`create index "maintenance_window_name_natural" on "maintenance_window" (patchbay_natural("name"));`);
    this.addSql(`create index "maintenance_window_target_version_numbers" on "maintenance_window" ((string_to_array("target_version", '.')::int[]));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "maintenance_window_name_natural";`);
    this.addSql(`drop index "maintenance_window_target_version_numbers";`);
    this.addSql(`alter table "maintenance_window" drop column "target_version", drop column "duration_minutes";`);
    this.addSql(`drop table if exists "maintenance_task" cascade;`);
  }
}
