import { Migration } from 'patchbay';

export class IpamOrderingIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "ipam_fhrpgroup_ordering" on "ipam_fhrpgroup" ("protocol", "group_id", "id");`);
    this.addSql(`create index "ipam_fhrpgroupassignment_ordering" on "ipam_fhrpgroupassignment" ("priority" desc, "id");`);
    this.addSql(`create index "ipam_role_ordering" on "ipam_role" ("weight", "name", "id");`);
    this.addSql(`create index "ipam_service_ordering" on "ipam_service" ("protocol", "ports", "id");`);
    this.addSql(`create index "ipam_vrf_ordering" on "ipam_vrf" ("name", "rd", "id");`);
    this.addSql(`create index "ipam_vlangroup_ordering" on "ipam_vlangroup" ("name", "id");`);
    this.addSql(`create index "ipam_ipaddress_ordering" on "ipam_ipaddress" ("address", "id");`);
    this.addSql(`create index "ipam_aggregate_ordering" on "ipam_aggregate" ("prefix", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "ipam_aggregate_ordering";`);
    this.addSql(`drop index "ipam_fhrpgroup_ordering";`);
    this.addSql(`drop index "ipam_fhrpgroupassignment_ordering";`);
    this.addSql(`drop index "ipam_ipaddress_ordering";`);
    this.addSql(`drop index "ipam_role_ordering";`);
    this.addSql(`drop index "ipam_service_ordering";`);
    this.addSql(`drop index "ipam_vlangroup_ordering";`);
    this.addSql(`drop index "ipam_vrf_ordering";`);
  }
}
