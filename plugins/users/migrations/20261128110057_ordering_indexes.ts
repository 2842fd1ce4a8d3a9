import { Migration } from 'patchbay';

export class UsersOrderingIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "users_objectpermission_ordering" on "users_objectpermission" ("name", "id");`);
    this.addSql(`create index "users_token_ordering" on "users_token" ("created" desc, "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "users_objectpermission_ordering";`);
    this.addSql(`drop index "users_token_ordering";`);
  }
}
