import { Migration } from 'patchbay';

export class IpamAddressHostIndexMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "ipam_ipaddress_address_host" on "ipam_ipaddress" ((host("address")::inet));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "ipam_ipaddress_address_host";`);
  }
}
