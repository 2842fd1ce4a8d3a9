import { Migration } from 'patchbay';

/**
 * A nullable foreign key's index leaves out its nulls, and one that leads a unique is dropped (the unique's index
 * serves it): inserts of rows whose keys are null skip those indexes.
 */
export class VirtualizationPartialForeignKeyIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "dcim_device_cluster_id_idx";`);
    this.addSql(`create index "dcim_device_cluster_id_idx" on "dcim_device" ("cluster_id") where "cluster_id" is not null;`);
    this.addSql(`drop index "virtualization_cluster_group_id_idx";`);
    this.addSql(`drop index "virtualization_cluster_tenant_id_idx";`);
    this.addSql(`create index "virtualization_cluster_tenant_id_idx" on "virtualization_cluster" ("tenant_id") where "tenant_id" is not null;`);
    this.addSql(`drop index "virtualization_cluster_scope_type_id_idx";`);
    this.addSql(`create index "virtualization_cluster_scope_type_id_idx" on "virtualization_cluster" ("scope_type_id") where "scope_type_id" is not null;`);
    this.addSql(`drop index "virtualization_virtualmachine_site_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_site_id_idx" on "virtualization_virtualmachine" ("site_id") where "site_id" is not null;`);
    this.addSql(`drop index "virtualization_virtualmachine_cluster_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_cluster_id_idx" on "virtualization_virtualmachine" ("cluster_id") where "cluster_id" is not null;`);
    this.addSql(`drop index "virtualization_virtualmachine_device_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_device_id_idx" on "virtualization_virtualmachine" ("device_id") where "device_id" is not null;`);
    this.addSql(`drop index "virtualization_virtualmachine_role_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_role_id_idx" on "virtualization_virtualmachine" ("role_id") where "role_id" is not null;`);
    this.addSql(`drop index "virtualization_virtualmachine_tenant_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_tenant_id_idx" on "virtualization_virtualmachine" ("tenant_id") where "tenant_id" is not null;`);
    this.addSql(`drop index "virtualization_virtualmachine_platform_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_platform_id_idx" on "virtualization_virtualmachine" ("platform_id") where "platform_id" is not null;`);
    this.addSql(`drop index "virtualization_virtualmachine_primary_ip4_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_primary_ip4_id_idx" on "virtualization_virtualmachine" ("primary_ip4_id") where "primary_ip4_id" is not null;`);
    this.addSql(`drop index "virtualization_virtualmachine_primary_ip6_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_primary_ip6_id_idx" on "virtualization_virtualmachine" ("primary_ip6_id") where "primary_ip6_id" is not null;`);
    this.addSql(`drop index "virtualization_vminterface_virtual_machine_id_idx";`);
    this.addSql(`drop index "virtualization_vminterface_parent_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_parent_id_idx" on "virtualization_vminterface" ("parent_id") where "parent_id" is not null;`);
    this.addSql(`drop index "virtualization_vminterface_bridge_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_bridge_id_idx" on "virtualization_vminterface" ("bridge_id") where "bridge_id" is not null;`);
    this.addSql(`drop index "virtualization_vminterface_primary_mac_address_id_idx";`);
    this.addSql(`drop index "virtualization_vminterface_untagged_vlan_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_untagged_vlan_id_idx" on "virtualization_vminterface" ("untagged_vlan_id") where "untagged_vlan_id" is not null;`);
    this.addSql(`drop index "virtualization_vminterface_qinq_svlan_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_qinq_svlan_id_idx" on "virtualization_vminterface" ("qinq_svlan_id") where "qinq_svlan_id" is not null;`);
    this.addSql(`drop index "virtualization_vminterface_vlan_translation_policy_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_vlan_translation_policy_id_idx" on "virtualization_vminterface" ("vlan_translation_policy_id") where "vlan_translation_policy_id" is not null;`);
    this.addSql(`drop index "virtualization_vminterface_vrf_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_vrf_id_idx" on "virtualization_vminterface" ("vrf_id") where "vrf_id" is not null;`);
    this.addSql(`drop index "virtualization_virtualdisk_virtual_machine_id_idx";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "dcim_device_cluster_id_idx";`);
    this.addSql(`create index "dcim_device_cluster_id_idx" on "dcim_device" ("cluster_id");`);
    this.addSql(`create index "virtualization_cluster_group_id_idx" on "virtualization_cluster" ("group_id");`);
    this.addSql(`drop index "virtualization_cluster_tenant_id_idx";`);
    this.addSql(`create index "virtualization_cluster_tenant_id_idx" on "virtualization_cluster" ("tenant_id");`);
    this.addSql(`drop index "virtualization_cluster_scope_type_id_idx";`);
    this.addSql(`create index "virtualization_cluster_scope_type_id_idx" on "virtualization_cluster" ("scope_type_id");`);
    this.addSql(`drop index "virtualization_virtualmachine_site_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_site_id_idx" on "virtualization_virtualmachine" ("site_id");`);
    this.addSql(`drop index "virtualization_virtualmachine_cluster_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_cluster_id_idx" on "virtualization_virtualmachine" ("cluster_id");`);
    this.addSql(`drop index "virtualization_virtualmachine_device_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_device_id_idx" on "virtualization_virtualmachine" ("device_id");`);
    this.addSql(`drop index "virtualization_virtualmachine_role_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_role_id_idx" on "virtualization_virtualmachine" ("role_id");`);
    this.addSql(`drop index "virtualization_virtualmachine_tenant_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_tenant_id_idx" on "virtualization_virtualmachine" ("tenant_id");`);
    this.addSql(`drop index "virtualization_virtualmachine_platform_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_platform_id_idx" on "virtualization_virtualmachine" ("platform_id");`);
    this.addSql(`drop index "virtualization_virtualmachine_primary_ip4_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_primary_ip4_id_idx" on "virtualization_virtualmachine" ("primary_ip4_id");`);
    this.addSql(`drop index "virtualization_virtualmachine_primary_ip6_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_primary_ip6_id_idx" on "virtualization_virtualmachine" ("primary_ip6_id");`);
    this.addSql(`create index "virtualization_vminterface_virtual_machine_id_idx" on "virtualization_vminterface" ("virtual_machine_id");`);
    this.addSql(`drop index "virtualization_vminterface_parent_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_parent_id_idx" on "virtualization_vminterface" ("parent_id");`);
    this.addSql(`drop index "virtualization_vminterface_bridge_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_bridge_id_idx" on "virtualization_vminterface" ("bridge_id");`);
    this.addSql(`create index "virtualization_vminterface_primary_mac_address_id_idx" on "virtualization_vminterface" ("primary_mac_address_id");`);
    this.addSql(`drop index "virtualization_vminterface_untagged_vlan_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_untagged_vlan_id_idx" on "virtualization_vminterface" ("untagged_vlan_id");`);
    this.addSql(`drop index "virtualization_vminterface_qinq_svlan_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_qinq_svlan_id_idx" on "virtualization_vminterface" ("qinq_svlan_id");`);
    this.addSql(`drop index "virtualization_vminterface_vlan_translation_policy_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_vlan_translation_policy_id_idx" on "virtualization_vminterface" ("vlan_translation_policy_id");`);
    this.addSql(`drop index "virtualization_vminterface_vrf_id_idx";`);
    this.addSql(`create index "virtualization_vminterface_vrf_id_idx" on "virtualization_vminterface" ("vrf_id");`);
    this.addSql(`create index "virtualization_virtualdisk_virtual_machine_id_idx" on "virtualization_virtualdisk" ("virtual_machine_id");`);
  }
}
