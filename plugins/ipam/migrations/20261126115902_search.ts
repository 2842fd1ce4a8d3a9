import { Migration } from 'patchbay';

export class IpamSearchMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "ipam_vlantranslationrule_description_trgm";`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index "ipam_vlantranslationrule_description_trgm" on "ipam_vlantranslationrule" using gin ("description" gin_trgm_ops);`);
  }
}
