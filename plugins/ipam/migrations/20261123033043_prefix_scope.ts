import { Migration } from 'patchbay';

export class IpamPrefixScopeMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ipam_prefix" add column "scope_type_id" int null, add column "scope_id" integer null;`);
    this.addSql(`alter table "ipam_prefix" add constraint "ipam_prefix_scope_type_id_foreign" foreign key ("scope_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
    this.addSql(`create index "ipam_prefix_scope_id_index" on "ipam_prefix" ("scope_id");`);
    this.addSql(`create index "ipam_prefix_scope_type_id_idx" on "ipam_prefix" ("scope_type_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ipam_prefix" drop constraint "ipam_prefix_scope_type_id_foreign";`);
    this.addSql(`drop index "ipam_prefix_scope_id_index";`);
    this.addSql(`drop index "ipam_prefix_scope_type_id_idx";`);
    this.addSql(`alter table "ipam_prefix" drop column "scope_type_id", drop column "scope_id";`);
  }
}
