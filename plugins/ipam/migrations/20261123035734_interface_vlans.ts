import { Migration } from 'patchbay';

export class IpamInterfaceVlansMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "dcim_interface_tagged_vlans" ("interface_id" int not null, "vlan_id" int not null, constraint "dcim_interface_tagged_vlans_pkey" primary key ("interface_id", "vlan_id"));`);
    this.addSql(`alter table "dcim_interface_tagged_vlans" add constraint "dcim_interface_tagged_vlans_interface_id_foreign" foreign key ("interface_id") references "dcim_interface" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dcim_interface_tagged_vlans" add constraint "dcim_interface_tagged_vlans_vlan_id_foreign" foreign key ("vlan_id") references "ipam_vlan" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dcim_interface" add column "untagged_vlan_id" int null, add column "qinq_svlan_id" int null, add column "vlan_translation_policy_id" int null, add column "vrf_id" int null;`);
    this.addSql(`alter table "dcim_interface" add constraint "dcim_interface_untagged_vlan_id_foreign" foreign key ("untagged_vlan_id") references "ipam_vlan" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "dcim_interface" add constraint "dcim_interface_qinq_svlan_id_foreign" foreign key ("qinq_svlan_id") references "ipam_vlan" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "dcim_interface" add constraint "dcim_interface_vlan_translation_policy_id_foreign" foreign key ("vlan_translation_policy_id") references "ipam_vlantranslationpolicy" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "dcim_interface" add constraint "dcim_interface_vrf_id_foreign" foreign key ("vrf_id") references "ipam_vrf" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "dcim_interface_untagged_vlan_id_idx" on "dcim_interface" ("untagged_vlan_id");`);
    this.addSql(`create index "dcim_interface_qinq_svlan_id_idx" on "dcim_interface" ("qinq_svlan_id");`);
    this.addSql(`create index "dcim_interface_vlan_translation_policy_id_idx" on "dcim_interface" ("vlan_translation_policy_id");`);
    this.addSql(`create index "dcim_interface_vrf_id_idx" on "dcim_interface" ("vrf_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "dcim_interface" drop constraint "dcim_interface_untagged_vlan_id_foreign";`);
    this.addSql(`alter table "dcim_interface" drop constraint "dcim_interface_qinq_svlan_id_foreign";`);
    this.addSql(`alter table "dcim_interface" drop constraint "dcim_interface_vlan_translation_policy_id_foreign";`);
    this.addSql(`alter table "dcim_interface" drop constraint "dcim_interface_vrf_id_foreign";`);
    this.addSql(`drop index "dcim_interface_untagged_vlan_id_idx";`);
    this.addSql(`drop index "dcim_interface_qinq_svlan_id_idx";`);
    this.addSql(`drop index "dcim_interface_vlan_translation_policy_id_idx";`);
    this.addSql(`drop index "dcim_interface_vrf_id_idx";`);
    this.addSql(`alter table "dcim_interface" drop column "untagged_vlan_id", drop column "qinq_svlan_id", drop column "vlan_translation_policy_id", drop column "vrf_id";`);
    this.addSql(`drop table if exists "dcim_interface_tagged_vlans" cascade;`);
  }
}
