import { Migration } from 'patchbay';

export class UsersSearchIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "users_group_name_trgm" on "users_group" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "users_group_description_trgm" on "users_group" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "users_objectpermission_name_trgm" on "users_objectpermission" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "users_objectpermission_description_trgm" on "users_objectpermission" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "users_user_username_trgm" on "users_user" using gin ("username" gin_trgm_ops);`);
    this.addSql(`create index "users_user_first_name_trgm" on "users_user" using gin ("first_name" gin_trgm_ops);`);
    this.addSql(`create index "users_user_last_name_trgm" on "users_user" using gin ("last_name" gin_trgm_ops);`);
    this.addSql(`create index "users_user_email_trgm" on "users_user" using gin ("email" gin_trgm_ops);`);
    this.addSql(`create index "users_token_description_trgm" on "users_token" using gin ("description" gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "users_group_name_trgm";`);
    this.addSql(`drop index "users_group_description_trgm";`);
    this.addSql(`drop index "users_objectpermission_name_trgm";`);
    this.addSql(`drop index "users_objectpermission_description_trgm";`);
    this.addSql(`drop index "users_token_description_trgm";`);
    this.addSql(`drop index "users_user_username_trgm";`);
    this.addSql(`drop index "users_user_first_name_trgm";`);
    this.addSql(`drop index "users_user_last_name_trgm";`);
    this.addSql(`drop index "users_user_email_trgm";`);
  }
}
