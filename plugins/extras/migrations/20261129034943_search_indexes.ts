import { Migration } from 'patchbay';

export class ExtrasSearchIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "extras_configcontext_data_trgm" on "extras_configcontext" using gin (("data"::text) gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "extras_configcontext_data_trgm";`);
  }
}
