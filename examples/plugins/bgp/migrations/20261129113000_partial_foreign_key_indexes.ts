import { Migration } from 'patchbay';

/**
 * A nullable foreign key's index leaves out its nulls, and one that leads a unique is dropped (the unique's index
 * serves it): inserts of rows whose keys are null skip those indexes.
 */
export class BgpPartialForeignKeyIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "bgp_session_device_id_idx";`);
    this.addSql(`drop index "bgp_session_local_address_id_idx";`);
    this.addSql(`create index "bgp_session_local_address_id_idx" on "bgp_session" ("local_address_id") where "local_address_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index "bgp_session_device_id_idx" on "bgp_session" ("device_id");`);
    this.addSql(`drop index "bgp_session_local_address_id_idx";`);
    this.addSql(`create index "bgp_session_local_address_id_idx" on "bgp_session" ("local_address_id");`);
  }
}
