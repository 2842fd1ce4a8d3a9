import { Migration } from 'patchbay';

export class ExtrasSearchMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "extras_customfield" add column "group_name" varchar(50) not null default '', add column "comments" text not null default '';`);
    this.addSql(`create index "extras_customfield_group_name_trgm" on "extras_customfield" using gin ("group_name" gin_trgm_ops);`);
    this.addSql(`create index "extras_customfield_comments_trgm" on "extras_customfield" using gin ("comments" gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "extras_customfield_group_name_trgm";`);
    this.addSql(`drop index "extras_customfield_comments_trgm";`);
    this.addSql(`alter table "extras_customfield" drop column "group_name", drop column "comments";`);
  }
}
