import { Migration } from 'patchbay';

export class IpamSearchIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "ipam_fhrpgroup_group_id_trgm" on "ipam_fhrpgroup" using gin (("group_id"::text) gin_trgm_ops);`);
    this.addSql(`create index "ipam_iprange_start_address_trgm" on "ipam_iprange" using gin (("start_address"::text) gin_trgm_ops);`);
    this.addSql(`create index "ipam_iprange_end_address_trgm" on "ipam_iprange" using gin (("end_address"::text) gin_trgm_ops);`);
    this.addSql(`create index "ipam_ipaddress_address_trgm" on "ipam_ipaddress" using gin (("address"::text) gin_trgm_ops);`);
    this.addSql(`create index "ipam_aggregate_prefix_trgm" on "ipam_aggregate" using gin (("prefix"::text) gin_trgm_ops);`);
    this.addSql(`create index "ipam_prefix_prefix_trgm" on "ipam_prefix" using gin (("prefix"::text) gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "ipam_aggregate_prefix_trgm";`);
    this.addSql(`drop index "ipam_fhrpgroup_group_id_trgm";`);
    this.addSql(`drop index "ipam_ipaddress_address_trgm";`);
    this.addSql(`drop index "ipam_iprange_start_address_trgm";`);
    this.addSql(`drop index "ipam_iprange_end_address_trgm";`);
    this.addSql(`drop index "ipam_prefix_prefix_trgm";`);
  }
}
