import { Migration } from 'patchbay';

export class DcimModuleBayParentMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "dcim_modulebay" drop constraint "dcim_modulebay_parent_id_foreign";`);
    this.addSql(`drop index "dcim_modulebay_parent_id_idx";`);
    this.addSql(`alter table "dcim_modulebay" drop column "parent_id";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "dcim_modulebay" add column "parent_id" int4 null;`);
    this.addSql(`alter table "dcim_modulebay" add constraint "dcim_modulebay_parent_id_foreign" foreign key ("parent_id") references "dcim_modulebay" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "dcim_modulebay_parent_id_idx" on "dcim_modulebay" ("parent_id");`);
  }
}
