import { Migration } from 'patchbay';

/** Browser login sessions (not a REST model, so written by hand). */
export class UsersSessionsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "users_session" ("id" serial primary key, "key_digest" varchar(64) not null unique, "user_id" int not null references "users_user" ("id") on update cascade on delete cascade, "csrf_token" varchar(64) not null, "created" timestamptz not null default now(), "expires" timestamptz not null);`);
    this.addSql(`create index "users_session_user_id_idx" on "users_session" ("user_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "users_session" cascade;`);
  }
}
