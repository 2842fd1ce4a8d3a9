import { Migration } from 'patchbay';

export class UsersInitialMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "users_group" ("id" serial primary key, "name" varchar(150) not null, "description" varchar(200) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`alter table "users_group" add constraint "users_group_name_uniq0" unique ("name");`);
    this.addSql(`create table "users_objectpermission" ("id" serial primary key, "name" varchar(100) not null, "description" varchar(200) not null default '', "enabled" boolean not null default true, "object_types" varchar(100)[] not null, "actions" varchar(30)[] not null, "constraints" jsonb null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create table "users_objectpermission_groups" ("objectpermission_id" int not null, "group_id" int not null, constraint "users_objectpermission_groups_pkey" primary key ("objectpermission_id", "group_id"));`);
    this.addSql(`create table "users_user" ("id" serial primary key, "username" varchar(150) not null, "password" varchar(255) not null, "first_name" varchar(150) not null default '', "last_name" varchar(150) not null default '', "email" varchar(254) not null default '', "is_staff" boolean not null default false, "is_active" boolean not null default true, "is_superuser" boolean not null default false, "date_joined" timestamptz null default now(), "last_login" timestamptz null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`alter table "users_user" add constraint "users_user_username_uniq0" unique ("username");`);
    this.addSql(`create table "users_token" ("id" serial primary key, "user_id" int not null, "expires" timestamptz null, "last_used" timestamptz null, "key" varchar(40) not null, "key_digest" varchar(64) not null, "write_enabled" boolean not null default true, "description" varchar(200) not null default '', "allowed_ips" inet[] null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "users_token_user_id_idx" on "users_token" ("user_id");`);
    this.addSql(`alter table "users_token" add constraint "users_token_key_key_digest_uniq0" unique ("key", "key_digest");`);
    this.addSql(`create table "users_objectpermission_users" ("objectpermission_id" int not null, "user_id" int not null, constraint "users_objectpermission_users_pkey" primary key ("objectpermission_id", "user_id"));`);
    this.addSql(`create table "users_user_groups" ("user_id" int not null, "group_id" int not null, constraint "users_user_groups_pkey" primary key ("user_id", "group_id"));`);
    this.addSql(`alter table "users_objectpermission_groups" add constraint "users_objectpermission_groups_objectpermission_id_foreign" foreign key ("objectpermission_id") references "users_objectpermission" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "users_objectpermission_groups" add constraint "users_objectpermission_groups_group_id_foreign" foreign key ("group_id") references "users_group" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "users_token" add constraint "users_token_user_id_foreign" foreign key ("user_id") references "users_user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "users_objectpermission_users" add constraint "users_objectpermission_users_objectpermission_id_foreign" foreign key ("objectpermission_id") references "users_objectpermission" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "users_objectpermission_users" add constraint "users_objectpermission_users_user_id_foreign" foreign key ("user_id") references "users_user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "users_user_groups" add constraint "users_user_groups_user_id_foreign" foreign key ("user_id") references "users_user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "users_user_groups" add constraint "users_user_groups_group_id_foreign" foreign key ("group_id") references "users_group" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users_objectpermission_groups" drop constraint "users_objectpermission_groups_group_id_foreign";`);
    this.addSql(`alter table "users_user_groups" drop constraint "users_user_groups_group_id_foreign";`);
    this.addSql(`alter table "users_objectpermission_groups" drop constraint "users_objectpermission_groups_objectpermission_id_foreign";`);
    this.addSql(`alter table "users_objectpermission_users" drop constraint "users_objectpermission_users_objectpermission_id_foreign";`);
    this.addSql(`alter table "users_token" drop constraint "users_token_user_id_foreign";`);
    this.addSql(`alter table "users_objectpermission_users" drop constraint "users_objectpermission_users_user_id_foreign";`);
    this.addSql(`alter table "users_user_groups" drop constraint "users_user_groups_user_id_foreign";`);
    this.addSql(`drop table if exists "users_user_groups" cascade;`);
    this.addSql(`drop table if exists "users_objectpermission_users" cascade;`);
    this.addSql(`drop table if exists "users_token" cascade;`);
    this.addSql(`drop table if exists "users_user" cascade;`);
    this.addSql(`drop table if exists "users_objectpermission_groups" cascade;`);
    this.addSql(`drop table if exists "users_objectpermission" cascade;`);
    this.addSql(`drop table if exists "users_group" cascade;`);
  }
}
