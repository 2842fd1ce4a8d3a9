import type { Db, DemoPart, DemoStep } from 'patchbay';
import { demoSites } from '../../dcim/api.js';

/** Rows a statement inserted (what a previous run made is skipped). */
async function inserted(db: Db, sql: string, bindings: readonly unknown[] = []): Promise<number> {
  const result = (await db.raw(sql, bindings as never[])) as { rowCount: number | null };
  return result.rowCount ?? 0;
}

/** The demo sites (dcim's `dc-0001`…) with their number `n`. */
const SITES = `select id, slug, substring(slug from 4)::int as n from dcim_site where slug = any(?)`;
const type = (app: string, model: string) => `(select id from core_objecttype where app_label = '${app}' and model = '${model}')`;

/**
 * The virtualization demo data, on dcim's and ipam's: a cluster per site (its first four devices as hosts) running
 * `vms-per-site` virtual machines, each with an interface, a disk and (for the first 253) an address in the second
 * /24 of the site's container prefix as its primary IPv4 address. Set-based; a rerun adds only what is missing.
 */
export function virtualizationDemoSteps(sizes: Record<string, number>, part: DemoPart): DemoStep[] {
  const sites = demoSites(part);
  const perSite = sizes['vms-per-site'];
  return [
    {
      label: 'Clusters and their hosts',
      run: async (db) =>
        (await inserted(db, `insert into virtualization_clustertype (name, slug, description, created, last_updated)
          values ('VMware ESXi', 'vmware-esxi', '', now(), now()) on conflict do nothing`)) +
        (await inserted(db, `insert into virtualization_clustergroup (name, slug, description, created, last_updated)
          values ('Production', 'production', '', now(), now()) on conflict do nothing`)) +
        (await inserted(db, `insert into virtualization_cluster (name, type_id, group_id, status, scope_type_id, scope_id, description, comments, created, last_updated)
          select s.slug || '-cluster', (select id from virtualization_clustertype where slug = 'vmware-esxi'), (select id from virtualization_clustergroup where slug = 'production'),
            'active', ${type('dcim', 'site')}, s.id, '', '', now(), now()
          from (${SITES}) s where not exists (select 1 from virtualization_cluster c where c.name = s.slug || '-cluster')`, [sites])) +
        (await inserted(db, `update dcim_device d set cluster_id = c.id
          from (select d.id, row_number() over (partition by d.site_id order by d.id) as k, d.site_id from dcim_device d join (${SITES}) s on s.id = d.site_id) h
          join dcim_site s on s.id = h.site_id join virtualization_cluster c on c.name = s.slug || '-cluster'
          where d.id = h.id and h.k <= 4 and d.cluster_id is null`, [sites])),
    },
    {
      label: 'Virtual machines, their interfaces and disks',
      run: async (db) =>
        (await inserted(db, `insert into virtualization_virtualmachine (name, status, site_id, cluster_id, serial, vcpus, memory, disk, description, comments, created, last_updated)
          select s.slug || '-vm-' || lpad(k::text, 4, '0'), 'active', s.id, c.id, '', 2, 4096, 40960, '', '', now(), now()
          from (${SITES}) s join virtualization_cluster c on c.name = s.slug || '-cluster' cross join generate_series(1, ?) k
          where not exists (select 1 from virtualization_virtualmachine m where m.cluster_id = c.id and m.name = s.slug || '-vm-' || lpad(k::text, 4, '0'))`, [sites, perSite])) +
        (await inserted(db, `insert into virtualization_vminterface (virtual_machine_id, name, enabled, description, mode, created, last_updated)
          select m.id, 'eth0', true, '', '', now(), now() from virtualization_virtualmachine m join (${SITES}) s on s.id = m.site_id
          where not exists (select 1 from virtualization_vminterface i where i.virtual_machine_id = m.id)`, [sites])) +
        (await inserted(db, `insert into virtualization_virtualdisk (virtual_machine_id, name, size, description, created, last_updated)
          select m.id, 'disk0', 40960, '', now(), now() from virtualization_virtualmachine m join (${SITES}) s on s.id = m.site_id
          where not exists (select 1 from virtualization_virtualdisk d where d.virtual_machine_id = m.id)`, [sites])),
    },
    {
      label: 'Virtual machine addresses',
      run: async (db) => {
        const added = await inserted(db, `with numbered as (
            select i.id as interface_id, s.n, substring(m.name from '-vm-([0-9]+)$')::int as k
            from virtualization_vminterface i join virtualization_virtualmachine m on m.id = i.virtual_machine_id join (${SITES}) s on s.id = m.site_id
          )
          insert into ipam_ipaddress (address, status, role, assigned_object_type_id, assigned_object_id, dns_name, description, comments, created, last_updated)
          select set_masklen('10.0.0.0'::inet + n.n * 1024 + 256 + n.k, 24), 'active', '', ${type('virtualization', 'vminterface')}, n.interface_id, '', '', '', now(), now()
          from numbered n where n.k < 254 and not exists (select 1 from ipam_ipaddress a
            where a.assigned_object_type_id = ${type('virtualization', 'vminterface')} and a.assigned_object_id = n.interface_id)`, [sites]);
        await db.raw(`update virtualization_virtualmachine m set primary_ip4_id = a.id
          from virtualization_vminterface i join ipam_ipaddress a on a.assigned_object_type_id = ${type('virtualization', 'vminterface')} and a.assigned_object_id = i.id
          where i.virtual_machine_id = m.id and m.primary_ip4_id is null and m.site_id in (select id from (${SITES}) s)`, [sites]);
        return added;
      },
    },
  ];
}
