import { Migration } from 'patchbay';

/**
 * A nullable foreign key's index leaves out its nulls, and one that leads a unique is dropped (the unique's index
 * serves it): inserts of rows whose keys are null skip those indexes.
 */
export class CorePartialForeignKeyIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "core_job_object_type_id_idx";`);
    this.addSql(`create index "core_job_object_type_id_idx" on "core_job" ("object_type_id") where "object_type_id" is not null;`);
    this.addSql(`drop index "core_job_user_id_idx";`);
    this.addSql(`create index "core_job_user_id_idx" on "core_job" ("user_id") where "user_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "core_job_object_type_id_idx";`);
    this.addSql(`create index "core_job_object_type_id_idx" on "core_job" ("object_type_id");`);
    this.addSql(`drop index "core_job_user_id_idx";`);
    this.addSql(`create index "core_job_user_id_idx" on "core_job" ("user_id");`);
  }
}
