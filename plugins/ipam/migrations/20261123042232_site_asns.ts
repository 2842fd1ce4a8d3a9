import { Migration } from 'patchbay';

export class IpamSiteAsnsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "dcim_site_asns" ("site_id" int not null, "asn_id" int not null, constraint "dcim_site_asns_pkey" primary key ("site_id", "asn_id"));`);
    this.addSql(`alter table "dcim_site_asns" add constraint "dcim_site_asns_site_id_foreign" foreign key ("site_id") references "dcim_site" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dcim_site_asns" add constraint "dcim_site_asns_asn_id_foreign" foreign key ("asn_id") references "ipam_asn" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "dcim_site_asns" cascade;`);
  }
}
