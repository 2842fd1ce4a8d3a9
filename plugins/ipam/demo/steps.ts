import type { Db, DemoPart, DemoStep } from 'patchbay';
import { demoSites } from '../../dcim/api.js';

/** Rows a statement inserted (what a previous run made is skipped). */
async function inserted(db: Db, sql: string, bindings: readonly unknown[] = []): Promise<number> {
  const result = (await db.raw(sql, bindings as never[])) as { rowCount: number | null };
  return result.rowCount ?? 0;
}

/** The demo sites (dcim's `dc-0001`…) with their number `n`. */
const SITES = `select id, slug, substring(slug from 4)::int as n from dcim_site where slug = any(?)`;

/**
 * The ipam demo data, on dcim's: VRFs, an RIR with the private aggregates, roles; per site a /22 container of
 * 10.0.0.0/8 scoped to the site with a servers /24, a management /24 of 100.64.0.0/10 in the management VRF, a VLAN
 * group with a servers and a management VLAN; and a management address on each device's management interface.
 * Set-based, and a rerun adds only what is missing.
 */
export function ipamDemoSteps(part: DemoPart): DemoStep[] {
  const sites = demoSites(part);
  const shared: DemoStep[] = [
    {
      label: 'VRFs, RIRs, aggregates and roles',
      run: async (db) =>
        (await inserted(db, `insert into ipam_vrf (name, rd, enforce_unique, description, comments, created, last_updated)
          select v.name, v.rd, true, '', '', now(), now() from (values ('Production', '65000:1'), ('Management', '65000:2')) v(name, rd) on conflict do nothing`)) +
        (await inserted(db, `insert into ipam_rir (name, slug, is_private, description, created, last_updated)
          values ('RFC 1918', 'rfc-1918', true, '', now(), now()), ('RFC 6598', 'rfc-6598', true, '', now(), now()) on conflict do nothing`)) +
        (await inserted(db, `insert into ipam_aggregate (prefix, rir_id, description, comments, created, last_updated)
          select v.prefix::cidr, r.id, '', '', now(), now() from (values ('10.0.0.0/8', 'rfc-1918'), ('172.16.0.0/12', 'rfc-1918'), ('192.168.0.0/16', 'rfc-1918'),
            ('100.64.0.0/10', 'rfc-6598')) v(prefix, rir) join ipam_rir r on r.slug = v.rir
          where not exists (select 1 from ipam_aggregate a where a.prefix = v.prefix::cidr)`)) +
        (await inserted(db, `insert into ipam_role (name, slug, weight, description, created, last_updated)
          values ('Servers', 'servers', 1000, '', now(), now()), ('Management', 'management', 1000, '', now(), now()) on conflict do nothing`)),
    },
  ];
  return [
    ...(part.first === 1 ? shared : []),
    {
      label: 'VLAN groups and VLANs',
      run: async (db) =>
        (await inserted(db, `insert into ipam_vlangroup (name, slug, scope_type_id, scope_id, vid_ranges, description, created, last_updated)
          select s.slug || ' VLANs', s.slug || '-vlans', (select id from core_objecttype where app_label = 'dcim' and model = 'site'), s.id, '[[1, 4094]]', '', now(), now()
          from (${SITES}) s on conflict do nothing`, [sites])) +
        (await inserted(db, `insert into ipam_vlan (site_id, group_id, vid, name, status, role_id, description, comments, created, last_updated)
          select s.id, g.id, v.vid, v.name, 'active', r.id, '', '', now(), now()
          from (${SITES}) s join ipam_vlangroup g on g.slug = s.slug || '-vlans'
          cross join (values (100, 'servers'), (200, 'management')) v(vid, name) join ipam_role r on r.slug = v.name
          on conflict do nothing`, [sites])),
    },
    {
      label: 'Prefixes',
      run: (db) =>
        inserted(db, `with planned(prefix, vrf, status, role, vlan, site_id) as (
            select set_masklen('10.0.0.0'::inet + s.n * 1024, 22)::cidr, null, 'container', null, null, s.id from (${SITES}) s
            union all select set_masklen('10.0.0.0'::inet + s.n * 1024, 24)::cidr, null, 'active', 'servers', 100, s.id from (${SITES}) s
            union all select set_masklen('100.64.0.0'::inet + s.n * 256, 24)::cidr, '65000:2', 'active', 'management', 200, s.id from (${SITES}) s
          )
          insert into ipam_prefix (prefix, vrf_id, scope_type_id, scope_id, status, role_id, vlan_id, is_pool, mark_utilized, description, comments, created, last_updated)
          select p.prefix, v.id, (select id from core_objecttype where app_label = 'dcim' and model = 'site'), p.site_id, p.status, r.id, vl.id, false, false, '', '', now(), now()
          from planned p left join ipam_vrf v on v.rd = p.vrf left join ipam_role r on r.slug = p.role
          left join ipam_vlan vl on vl.site_id = p.site_id and vl.vid = p.vlan
          where not exists (select 1 from ipam_prefix x where x.prefix = p.prefix and x.vrf_id is not distinct from v.id)`, [sites, sites, sites]),
    },
    {
      label: 'Management addresses',
      // The management interface of each device (its first, by name, when it has none), numbered within its site.
      run: (db) =>
        inserted(db, `with managed as (
            select distinct on (d.id) d.id as device_id, i.id as interface_id, s.n, dense_rank() over (partition by d.site_id order by d.id) as k
            from (${SITES}) s join dcim_device d on d.site_id = s.id join dcim_interface i on i.device_id = d.id
            order by d.id, i.mgmt_only desc, i.name_natural
          )
          insert into ipam_ipaddress (address, vrf_id, status, role, assigned_object_type_id, assigned_object_id, dns_name, description, comments, created, last_updated)
          select set_masklen('100.64.0.0'::inet + m.n * 256 + m.k, 24), (select id from ipam_vrf where rd = '65000:2'), 'active', '',
            (select id from core_objecttype where app_label = 'dcim' and model = 'interface'), m.interface_id, '', '', '', now(), now()
          from managed m
          where m.k < 255 and not exists (select 1 from ipam_ipaddress a where a.assigned_object_id = m.interface_id
            and a.assigned_object_type_id = (select id from core_objecttype where app_label = 'dcim' and model = 'interface'))`, [sites]),
    },
  ];
}
