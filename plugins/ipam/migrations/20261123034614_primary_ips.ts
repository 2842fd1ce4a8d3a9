import { Migration } from 'patchbay';

export class IpamPrimaryIpsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "dcim_device" add column "primary_ip4_id" int null, add column "primary_ip6_id" int null, add column "oob_ip_id" int null;`);
    this.addSql(`alter table "dcim_device" add constraint "dcim_device_primary_ip4_id_foreign" foreign key ("primary_ip4_id") references "ipam_ipaddress" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "dcim_device" add constraint "dcim_device_primary_ip6_id_foreign" foreign key ("primary_ip6_id") references "ipam_ipaddress" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "dcim_device" add constraint "dcim_device_oob_ip_id_foreign" foreign key ("oob_ip_id") references "ipam_ipaddress" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "dcim_device_primary_ip4_id_idx" on "dcim_device" ("primary_ip4_id");`);
    this.addSql(`create index "dcim_device_primary_ip6_id_idx" on "dcim_device" ("primary_ip6_id");`);
    this.addSql(`create index "dcim_device_oob_ip_id_idx" on "dcim_device" ("oob_ip_id");`);
    this.addSql(`alter table "dcim_virtualdevicecontext" add column "primary_ip4_id" int null, add column "primary_ip6_id" int null;`);
    this.addSql(`alter table "dcim_virtualdevicecontext" add constraint "dcim_virtualdevicecontext_primary_ip4_id_foreign" foreign key ("primary_ip4_id") references "ipam_ipaddress" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "dcim_virtualdevicecontext" add constraint "dcim_virtualdevicecontext_primary_ip6_id_foreign" foreign key ("primary_ip6_id") references "ipam_ipaddress" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "dcim_virtualdevicecontext_primary_ip4_id_idx" on "dcim_virtualdevicecontext" ("primary_ip4_id");`);
    this.addSql(`create index "dcim_virtualdevicecontext_primary_ip6_id_idx" on "dcim_virtualdevicecontext" ("primary_ip6_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "dcim_device" drop constraint "dcim_device_primary_ip4_id_foreign";`);
    this.addSql(`alter table "dcim_device" drop constraint "dcim_device_primary_ip6_id_foreign";`);
    this.addSql(`alter table "dcim_device" drop constraint "dcim_device_oob_ip_id_foreign";`);
    this.addSql(`alter table "dcim_virtualdevicecontext" drop constraint "dcim_virtualdevicecontext_primary_ip4_id_foreign";`);
    this.addSql(`alter table "dcim_virtualdevicecontext" drop constraint "dcim_virtualdevicecontext_primary_ip6_id_foreign";`);
    this.addSql(`drop index "dcim_device_primary_ip4_id_idx";`);
    this.addSql(`drop index "dcim_device_primary_ip6_id_idx";`);
    this.addSql(`drop index "dcim_device_oob_ip_id_idx";`);
    this.addSql(`alter table "dcim_device" drop column "primary_ip4_id", drop column "primary_ip6_id", drop column "oob_ip_id";`);
    this.addSql(`drop index "dcim_virtualdevicecontext_primary_ip4_id_idx";`);
    this.addSql(`drop index "dcim_virtualdevicecontext_primary_ip6_id_idx";`);
    this.addSql(`alter table "dcim_virtualdevicecontext" drop column "primary_ip4_id", drop column "primary_ip6_id";`);
  }
}
