import type { Db } from '../../kernel/base/types.js';

/**
 * Fills the ipam tables with `n` rows each, every relation set, straight in SQL: addresses on seedDcim's
 * interfaces, each the NAT inside address of the one before it (in a ring, so every page has both NAT fields).
 * Expects seedTenancy's tenants and seedDcim's interfaces.
 */
export async function seedIpam(db: Db, n: number): Promise<void> {
  const now = 'now(), now()';
  await db.raw(`insert into ipam_routetarget (name, tenant_id, created, last_updated) select '65000:' || i, i, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_vrf (name, rd, tenant_id, enforce_unique, created, last_updated) select 'VRF ' || i, '65000:' || i, i, true, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_vrf_import_targets (vrf_id, routetarget_id) select i, i from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_vrf_export_targets (vrf_id, routetarget_id) select i, i from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_rir (name, slug, is_private, created, last_updated) select 'RIR ' || i, 'rir-' || i, false, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_role (name, slug, weight, created, last_updated) select 'Role ' || i, 'role-' || i, 1000, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_vlangroup (name, slug, scope_type_id, scope_id, vid_ranges, tenant_id, created, last_updated)
    select 'Group ' || i, 'group-' || i, (select id from core_objecttype where app_label = 'dcim' and model = 'site'), i, '[[1, 4094]]', i, ${now}
    from generate_series(1, ?) i`, [n]);
  // Each VLAN i a customer VLAN of the service VLAN before it (a ring again, so every page has one).
  await db.raw(`insert into ipam_vlan (site_id, group_id, vid, name, tenant_id, status, role_id, qinq_role, qinq_svlan_id, created, last_updated)
    select i, i, 100, 'VLAN ' || i, i, 'active', i, 'cvlan', (i % ?) + 1, ${now} from generate_series(1, ?) i`, [n, n]);
  // Network i: 10.<i / 256>.<i % 256>.0/24 (up to 65,536 of them).
  const net = `'10.' || (i / 256) || '.' || (i % 256)`;
  await db.raw(`insert into ipam_aggregate (prefix, rir_id, tenant_id, created, last_updated) select (${net} || '.0/24')::cidr, i, i, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_prefix (prefix, vrf_id, scope_type_id, scope_id, tenant_id, vlan_id, status, role_id, is_pool, mark_utilized, created, last_updated)
    select (${net} || '.0/24')::cidr, i, (select id from core_objecttype where app_label = 'dcim' and model = 'site'), i, i, i, 'active', i, false, false, ${now}
    from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_iprange (start_address, end_address, vrf_id, tenant_id, status, role_id, mark_populated, mark_utilized, created, last_updated)
    select (${net} || '.10/24')::inet, (${net} || '.20/24')::inet, i, i, 'active', i, false, false, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_ipaddress (address, vrf_id, tenant_id, status, role, assigned_object_type_id, assigned_object_id, nat_inside_id, dns_name, created, last_updated)
    select (${net} || '.1/24')::inet, i, i, 'active', '', (select id from core_objecttype where app_label = 'dcim' and model = 'interface'), i,
      (i % ?) + 1, 'host' || i || '.example.com', ${now} from generate_series(1, ?) i`, [n, n]);
  const type = (app: string, model: string) => `(select id from core_objecttype where app_label = '${app}' and model = '${model}')`;
  await db.raw(`insert into ipam_fhrpgroup (name, protocol, group_id, auth_type, auth_key, description, comments, created, last_updated)
    select 'Group ' || i, 'vrrp2', i, 'md5', 'key', '', '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_fhrpgroupassignment (group_id, interface_type_id, interface_id, priority, created, last_updated)
    select i, ${type('dcim', 'interface')}, i, 100, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_servicetemplate (name, protocol, ports, description, comments, created, last_updated)
    select 'Template ' || i, 'tcp', array[i, i + 1], '', '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_service (parent_object_type_id, parent_object_id, name, protocol, ports, description, comments, created, last_updated)
    select ${type('dcim', 'device')}, i, 'Service ' || i, 'tcp', array[22], '', '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_service_ipaddresses (service_id, ipaddress_id) select i, i from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_vlantranslationpolicy (name, description, created, last_updated) select 'Policy ' || i, '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_vlantranslationrule (policy_id, local_vid, remote_vid, description, created, last_updated)
    select i, 100, 200, '', ${now} from generate_series(1, ?) i`, [n]);
  // Each interface i carries VLAN i untagged and tagged, in VRF i, with translation policy i.
  await db.raw(`update dcim_interface set mode = 'tagged', untagged_vlan_id = id, vrf_id = id, vlan_translation_policy_id = id where id <= ?`, [n]);
  await db.raw('insert into dcim_interface_tagged_vlans (interface_id, vlan_id) select i, i from generate_series(1, ?) i', [n]);
  // Each device's address (on its interface i) is its primary and out-of-band one; each context's too.
  await db.raw('update dcim_device set primary_ip4_id = id, oob_ip_id = id where id <= ?', [n]);
  await db.raw('update dcim_virtualdevicecontext set primary_ip4_id = id where id <= ?', [n]);
  await db.raw(`insert into ipam_asnrange (name, slug, rir_id, start, "end", tenant_id, created, last_updated)
    select 'Range ' || i, 'range-' || i, i, 64512 + i * 10, 64512 + i * 10 + 9, i, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into ipam_asn (asn, rir_id, tenant_id, created, last_updated) select 64512 + i * 10, i, i, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw('insert into dcim_site_asns (site_id, asn_id) select i, i from generate_series(1, ?) i', [n]);
}
