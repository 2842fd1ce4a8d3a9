import { Migration } from 'patchbay';

export class IpamPrefixHostIndexMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "ipam_prefix_prefix_host" on "ipam_prefix" ((host("prefix")::inet));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "ipam_prefix_prefix_host";`);
  }
}
