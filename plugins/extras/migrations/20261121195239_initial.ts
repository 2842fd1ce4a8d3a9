import { Migration } from 'patchbay';

export class ExtrasInitialMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "extras_tag" ("id" serial primary key, "name" varchar(100) not null, "slug" varchar(100) not null, "color" varchar(6) not null default '9e9e9e', "description" varchar(200) not null default '', "weight" integer not null default 1000, "object_types" varchar(100)[] not null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "extras_tag_name_trgm" on "extras_tag" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "extras_tag_slug_trgm" on "extras_tag" using gin ("slug" gin_trgm_ops);`);
    this.addSql(`create index "extras_tag_description_trgm" on "extras_tag" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "extras_tag" add constraint "extras_tag_name_uniq0" unique ("name");`);
    this.addSql(`alter table "extras_tag" add constraint "extras_tag_slug_uniq1" unique ("slug");`);
    this.addSql(`create table "extras_objectchange" ("id" serial primary key, "time" timestamptz not null default now(), "user_id" int null, "user_name" varchar(150) not null default '', "request_id" varchar(36) not null, "action" varchar(50) not null, "changed_object_type_id" int not null, "changed_object_id" integer not null, "related_object_type_id" int null, "related_object_id" integer null, "object_repr" varchar(200) not null, "message" varchar(200) not null default '', "prechange_data" jsonb null, "postchange_data" jsonb null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "extras_objectchange_changed_object_id_index" on "extras_objectchange" ("changed_object_id");`);
    this.addSql(`create index "extras_objectchange_related_object_id_index" on "extras_objectchange" ("related_object_id");`);
    this.addSql(`create index "extras_objectchange_user_id_idx" on "extras_objectchange" ("user_id");`);
    this.addSql(`create index "extras_objectchange_changed_object_type_id_idx" on "extras_objectchange" ("changed_object_type_id");`);
    this.addSql(`create index "extras_objectchange_related_object_type_id_idx" on "extras_objectchange" ("related_object_type_id");`);
    this.addSql(`create index "extras_objectchange_user_name_trgm" on "extras_objectchange" using gin ("user_name" gin_trgm_ops);`);
    this.addSql(`create index "extras_objectchange_object_repr_trgm" on "extras_objectchange" using gin ("object_repr" gin_trgm_ops);`);
    this.addSql(`create index "extras_objectchange_message_trgm" on "extras_objectchange" using gin ("message" gin_trgm_ops);`);
    this.addSql(`alter table "extras_objectchange" add constraint "extras_objectchange_user_id_foreign" foreign key ("user_id") references "users_user" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "extras_objectchange" add constraint "extras_objectchange_changed_object_type_id_foreign" foreign key ("changed_object_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "extras_objectchange" add constraint "extras_objectchange_related_object_type_id_foreign" foreign key ("related_object_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "extras_objectchange" cascade;`);
    this.addSql(`drop table if exists "extras_tag" cascade;`);
  }
}
