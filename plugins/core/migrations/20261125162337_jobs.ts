import { Migration } from 'patchbay';

export class CoreJobsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "core_job" ("id" serial primary key, "object_type_id" int null, "object_id" integer null, "name" varchar(200) not null, "status" varchar(50) not null default 'pending', "scheduled" timestamptz null, "interval" integer null, "started" timestamptz null, "completed" timestamptz null, "user_id" int null, "data" jsonb null, "error" text not null default '', "job_id" varchar(36) not null, "log_entries" json not null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "core_job_object_id_index" on "core_job" ("object_id");`);
    this.addSql(`create index "core_job_object_type_id_idx" on "core_job" ("object_type_id");`);
    this.addSql(`create index "core_job_user_id_idx" on "core_job" ("user_id");`);
    this.addSql(`create index "core_job_name_trgm" on "core_job" using gin ("name" gin_trgm_ops);`);
    this.addSql(`alter table "core_job" add constraint "core_job_job_id_uniq0" unique ("job_id");`);
    this.addSql(`alter table "core_job" add constraint "core_job_object_type_id_foreign" foreign key ("object_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "core_job" add constraint "core_job_user_id_foreign" foreign key ("user_id") references "users_user" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "core_job" cascade;`);
  }
}
