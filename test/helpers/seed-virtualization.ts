import type { Db } from '../../kernel/base/types.js';

/**
 * Fills the virtualization tables with `n` rows each, every relation set, straight in SQL: cluster i at site i,
 * hosting device i; VM i in it with interface i (a child of the next one, with VLAN i untagged and tagged, an
 * address and a MAC) and disk i. Expects seedTenancy's, seedDcim's and seedIpam's rows.
 */
export async function seedVirtualization(db: Db, n: number): Promise<void> {
  const now = 'now(), now()';
  const type = (app: string, model: string) => `(select id from core_objecttype where app_label = '${app}' and model = '${model}')`;
  await db.raw(`insert into virtualization_clustertype (name, slug, description, created, last_updated) select 'Type ' || i, 'type-' || i, '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into virtualization_clustergroup (name, slug, description, created, last_updated) select 'Group ' || i, 'group-' || i, '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into virtualization_cluster (name, type_id, group_id, status, tenant_id, scope_type_id, scope_id, description, comments, created, last_updated)
    select 'Cluster ' || i, i, i, 'active', i, ${type('dcim', 'site')}, i, '', '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw('update dcim_device set cluster_id = id where id <= ?', [n]);
  await db.raw(`insert into virtualization_virtualmachine (name, status, site_id, cluster_id, device_id, serial, role_id, tenant_id, platform_id, vcpus, memory, disk,
      description, comments, local_context_data, created, last_updated)
    select 'vm' || i, 'active', i, i, i, 'SN' || i, i, i, i, 2, 1024, 100, '', '', '{"a": 1}', ${now} from generate_series(1, ?) i`, [n]);
  // Interface i's parent and bridge: the next one (a ring, so every page has both).
  await db.raw(`insert into virtualization_vminterface (virtual_machine_id, name, enabled, mtu, description, mode, untagged_vlan_id, vrf_id,
      vlan_translation_policy_id, created, last_updated)
    select i, 'eth' || i, true, 1500, '', 'tagged', i, i, i, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw('update virtualization_vminterface set parent_id = (id % ?) + 1, bridge_id = (id % ?) + 1', [n, n]);
  await db.raw('insert into virtualization_vminterface_tagged_vlans (vminterface_id, vlan_id) select i, i from generate_series(1, ?) i', [n]);
  await db.raw(`insert into virtualization_virtualdisk (virtual_machine_id, name, size, description, created, last_updated) select i, 'disk' || i, 100, '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_ipaddress (address, status, role, assigned_object_type_id, assigned_object_id, dns_name, description, comments, created, last_updated)
    select ('172.20.' || (i / 256) || '.' || (i % 256) || '/16')::inet, 'active', '', ${type('virtualization', 'vminterface')}, i, '', '', '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`update virtualization_virtualmachine m set primary_ip4_id = a.id from ipam_ipaddress a
    where a.assigned_object_type_id = ${type('virtualization', 'vminterface')} and a.assigned_object_id = m.id`);
  await db.raw(`insert into dcim_macaddress (mac_address, assigned_object_type_id, assigned_object_id, description, comments, created, last_updated)
    select ('02:00:00:00:' || lpad(to_hex(i / 256), 2, '0') || ':' || lpad(to_hex(i % 256), 2, '0'))::macaddr, ${type('virtualization', 'vminterface')}, i, '', '', ${now}
    from generate_series(1, ?) i`, [n]);
  await db.raw(`update virtualization_vminterface i set primary_mac_address_id = m.id from dcim_macaddress m
    where m.assigned_object_type_id = ${type('virtualization', 'vminterface')} and m.assigned_object_id = i.id`);
}
