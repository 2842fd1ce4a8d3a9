import { Migration } from 'patchbay';

export class DcimSearchIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "dcim_macaddress_mac_address_trgm" on "dcim_macaddress" using gin (("mac_address"::text) gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "dcim_macaddress_mac_address_trgm";`);
  }
}
