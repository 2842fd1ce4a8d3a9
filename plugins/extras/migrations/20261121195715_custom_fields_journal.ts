import { Migration } from 'patchbay';

export class ExtrasCustomFieldsJournalMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "extras_customfieldchoiceset" ("id" serial primary key, "name" varchar(100) not null, "description" varchar(200) not null default '', "extra_choices" jsonb not null, "order_alphabetically" boolean not null default false, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "extras_customfieldchoiceset_name_trgm" on "extras_customfieldchoiceset" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "extras_customfieldchoiceset_description_trgm" on "extras_customfieldchoiceset" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "extras_customfieldchoiceset" add constraint "extras_customfieldchoiceset_name_uniq0" unique ("name");`);
    this.addSql(`create table "extras_customfield" ("id" serial primary key, "object_types" varchar(100)[] not null, "type" varchar(50) not null default 'text', "related_object_type" varchar(100) null, "name" varchar(50) not null, "label" varchar(50) not null default '', "description" varchar(200) not null default '', "required" boolean not null default false, "unique" boolean not null default false, "default" jsonb null, "weight" integer not null default 100, "filter_logic" varchar(50) not null default 'loose', "validation_minimum" numeric(16,4) null, "validation_maximum" numeric(16,4) null, "validation_regex" varchar(500) not null default '', "choice_set_id" int null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "extras_customfield_choice_set_id_idx" on "extras_customfield" ("choice_set_id");`);
    this.addSql(`create index "extras_customfield_name_trgm" on "extras_customfield" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "extras_customfield_label_trgm" on "extras_customfield" using gin ("label" gin_trgm_ops);`);
    this.addSql(`create index "extras_customfield_description_trgm" on "extras_customfield" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "extras_customfield" add constraint "extras_customfield_name_uniq0" unique ("name");`);
    this.addSql(`create table "extras_journalentry" ("id" serial primary key, "assigned_object_type_id" int not null, "assigned_object_id" integer not null, "created_by_id" int null, "kind" varchar(50) not null default 'info', "comments" text not null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "extras_journalentry_assigned_object_id_index" on "extras_journalentry" ("assigned_object_id");`);
    this.addSql(`create index "extras_journalentry_assigned_object_type_id_idx" on "extras_journalentry" ("assigned_object_type_id");`);
    this.addSql(`create index "extras_journalentry_created_by_id_idx" on "extras_journalentry" ("created_by_id");`);
    this.addSql(`create index "extras_journalentry_comments_trgm" on "extras_journalentry" using gin ("comments" gin_trgm_ops);`);
    this.addSql(`alter table "extras_customfield" add constraint "extras_customfield_choice_set_id_foreign" foreign key ("choice_set_id") references "extras_customfieldchoiceset" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "extras_journalentry" add constraint "extras_journalentry_assigned_object_type_id_foreign" foreign key ("assigned_object_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "extras_journalentry" add constraint "extras_journalentry_created_by_id_foreign" foreign key ("created_by_id") references "users_user" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "extras_customfield" drop constraint "extras_customfield_choice_set_id_foreign";`);
    this.addSql(`drop table if exists "extras_journalentry" cascade;`);
    this.addSql(`drop table if exists "extras_customfield" cascade;`);
    this.addSql(`drop table if exists "extras_customfieldchoiceset" cascade;`);
  }
}
