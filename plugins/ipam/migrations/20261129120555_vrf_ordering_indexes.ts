import { Migration } from 'patchbay';

/** Prefixes and IP ranges ordered as NetBox orders them (by VRF key, the global table first), read from an index. */
export class IpamVrfOrderingIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "ipam_iprange_ordering" on "ipam_iprange" ("vrf_id" nulls first, "start_address", "id");`);
    this.addSql(`create index "ipam_prefix_ordering" on "ipam_prefix" ("vrf_id" nulls first, "prefix", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "ipam_iprange_ordering";`);
    this.addSql(`drop index "ipam_prefix_ordering";`);
  }
}
