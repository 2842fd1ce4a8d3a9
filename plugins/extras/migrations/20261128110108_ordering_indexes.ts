import { Migration } from 'patchbay';

export class ExtrasOrderingIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "extras_configcontext_ordering" on "extras_configcontext" ("weight", "name", "id");`);
    this.addSql(`create index "extras_configtemplate_ordering" on "extras_configtemplate" ("name", "id");`);
    this.addSql(`create index "extras_customfield_ordering" on "extras_customfield" ("weight", "name", "id");`);
    this.addSql(`create index "extras_exporttemplate_ordering" on "extras_exporttemplate" ("name", "id");`);
    this.addSql(`create index "extras_imageattachment_ordering" on "extras_imageattachment" ("name", "id");`);
    this.addSql(`create index "extras_tag_ordering" on "extras_tag" ("weight", "name", "id");`);
    this.addSql(`create index "extras_webhookdelivery_ordering" on "extras_webhookdelivery" ("created" desc, "id" desc);`);
    this.addSql(`create index "extras_objectchange_ordering" on "extras_objectchange" ("time" desc, "id" desc);`);
    this.addSql(`create index "extras_journalentry_ordering" on "extras_journalentry" ("created" desc, "id" desc);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "extras_configcontext_ordering";`);
    this.addSql(`drop index "extras_configtemplate_ordering";`);
    this.addSql(`drop index "extras_customfield_ordering";`);
    this.addSql(`drop index "extras_exporttemplate_ordering";`);
    this.addSql(`drop index "extras_imageattachment_ordering";`);
    this.addSql(`drop index "extras_journalentry_ordering";`);
    this.addSql(`drop index "extras_objectchange_ordering";`);
    this.addSql(`drop index "extras_tag_ordering";`);
    this.addSql(`drop index "extras_webhookdelivery_ordering";`);
  }
}
