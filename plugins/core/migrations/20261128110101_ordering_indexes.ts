import { Migration } from 'patchbay';

export class CoreOrderingIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "core_job_ordering" on "core_job" ("created" desc, "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "core_job_ordering";`);
  }
}
