import type { Db, DemoStep, ModelRegistry } from 'patchbay';
import { isPathEndpoint } from '../cabling/cabled.js';
import { retrace } from '../cabling/paths.js';

const typeId = (key: string) => `(select id from core_objecttype where app_label = '${key.split('.')[0]}' and model = '${key.split('.')[1]}')`;

/** The demo devices of `sites` (`?`), with their slot `k` in the site, its place in the 25-device pattern and its block. */
export const DEMO_DEVICES = `select d.id, d.site_id, d.rack_id, right(d.name, 3)::int as k, right(d.name, 3)::int % 25 as slot, right(d.name, 3)::int / 25 as block
  from dcim_device d join dcim_site s on s.id = d.site_id where s.slug = any(?)`;

/**
 * Cables from objects of model `a` to objects of model `b`, one per row of `pairs` (SQL selecting `a_id, b_id`),
 * with their terminations and the objects' `cable` and `cable_end`, in one statement. Pairs with an end already
 * cabled are skipped, so a rerun adds nothing. Paths are traced afterwards (`demoPaths`). Returns the rows added.
 */
export async function demoCables(db: Db, a: string, b: string, pairs: string, bindings: readonly unknown[], type: string): Promise<number> {
  const [ta, tb] = [a.replace('.', '_'), b.replace('.', '_')];
  const { rows } = (await db.raw(
    `with p as materialized (
       select x.a_id, x.b_id, nextval(pg_get_serial_sequence('dcim_cable', 'id')) as cable
       from (${pairs}) x join ${ta} ea on ea.id = x.a_id and ea.cable_id is null join ${tb} eb on eb.id = x.b_id and eb.cable_id is null),
     c as (insert into dcim_cable (id, type, status, label, color, description, comments, created, last_updated)
       select cable, ?, 'connected', '', '', '', '', now(), now() from p returning 1),
     t as (insert into dcim_cabletermination (cable_id, cable_end, termination_type_id, termination_id, created, last_updated)
       select cable, 'A', ${typeId(a)}, a_id, now(), now() from p union all select cable, 'B', ${typeId(b)}, b_id, now(), now() from p returning 1),
     ua as (update ${ta} e set cable_id = p.cable, cable_end = 'A' from p where e.id = p.a_id returning 1),
     ub as (update ${tb} e set cable_id = p.cable, cable_end = 'B' from p where e.id = p.b_id returning 1)
     select (select count(*) from c)::int + (select count(*) from t)::int as n`,
    [...bindings, type] as never[],
  )) as { rows: { n: number }[] };
  return rows[0].n;
}

/**
 * Traces the cable paths of every cabled endpoint in `sites` that has none yet, a few sites at a time (each batch one
 * re-trace, as a cable write does). Returns the rows added: the paths and their nodes.
 */
export async function demoPaths(db: Db, registry: ModelRegistry, sites: string[]): Promise<number> {
  let added = 0;
  const endpoints = registry.all().filter((m) => isPathEndpoint(registry, m.key));
  for (let at = 0; at < sites.length; at += 20) {
    const batch = sites.slice(at, at + 20);
    const nodes: string[] = [];
    for (const model of endpoints) {
      const placed = model.field('device') ? `device_id in (select id from (${DEMO_DEVICES}) d)` : model.key === 'dcim.powerfeed'
        ? 'rack_id in (select r.id from dcim_rack r join dcim_site s on s.id = r.site_id where s.slug = any(?))' : 'false';
      // A probe of the nodes' index per endpoint: a set difference with every path's origin grew with the table
      // (at 2,000 sites it took a third of the time of each part).
      const rows = (await db.raw(
        `select '${model.key}:' || id as node from ${model.table} e where cable_id is not null and ${placed}
           and not exists (select 1 from dcim_cablepathnode n where n.node = '${model.key}:' || e.id and n.origin)`,
        placed === 'false' ? [] : [batch],
      )) as { rows: { node: string }[] };
      nodes.push(...rows.rows.map((r) => r.node));
    }
    await retrace(db, registry, nodes, { shared: true });
    // The paths these endpoints start and their nodes (the tables' counts would include what other parts commit meanwhile).
    const traced = (await db.raw(`with traced as (select distinct path_id from dcim_cablepathnode where origin and node = any(?))
      select ((select count(*) from traced) + (select count(*) from dcim_cablepathnode where path_id in (select path_id from traced)))::int as n`, [nodes])) as { rows: { n: number }[] };
    added += traced.rows[0].n;
  }
  return added;
}

/**
 * The demo's cabling, in the 25-device pattern of each site (catalog.ts): servers (slots 8-20) to two leaves each,
 * leaves (1-7) up to the core router (0) through a pair of patch panels (23 → trunk → 24), every device's power
 * supplies to the two PDUs (21, 22), and the PDUs to their rack's A and B feeds; then the paths.
 */
export function cablingSteps(sites: string[], registry: ModelRegistry): DemoStep[] {
  const dev = `with dev as (${DEMO_DEVICES})`;
  const partner = (slot: string) => `dev o on o.site_id = d.site_id and o.block = d.block and o.slot = ${slot}`;
  return [
    {
      label: 'Cables: servers to leaves',
      // Server slot s: eno1 to leaf 1 + (s-8) % 7, eno2 to the next leaf; ports Ethernet1-4.
      run: (db) => demoCables(db, 'dcim.interface', 'dcim.interface', `${dev}
        select i.id as a_id, l.id as b_id from dev d join dcim_interface i on i.device_id = d.id and i.name in ('eno1', 'eno2')
        join ${partner(`1 + (d.slot - 8 + case when i.name = 'eno2' then 1 else 0 end) % 7`)}
        join dcim_interface l on l.device_id = o.id and l.name = 'Ethernet' || (case when i.name = 'eno1' then 1 else 3 end + (d.slot - 8) / 7)
        where d.slot between 8 and 20`, [sites], 'cat6a'),
    },
    {
      label: 'Cables: leaves to the core through patch panels',
      run: async (db) =>
        (await demoCables(db, 'dcim.interface', 'dcim.frontport', `${dev}
          select i.id as a_id, f.id as b_id from dev d join dcim_interface i on i.device_id = d.id and i.name = 'Ethernet49/1'
          join ${partner('23')} join dcim_frontport f on f.device_id = o.id and f.name = 'Port ' || d.slot
          where d.slot between 1 and 7`, [sites], 'smf-os2')) +
        (await demoCables(db, 'dcim.rearport', 'dcim.rearport', `${dev}
          select r.id as a_id, b.id as b_id from dev d join dcim_rearport r on r.device_id = d.id
          join ${partner('24')} join dcim_rearport b on b.device_id = o.id where d.slot = 23`, [sites], 'mrj21-trunk')) +
        (await demoCables(db, 'dcim.frontport', 'dcim.interface', `${dev}
          select f.id as a_id, i.id as b_id from dev d join dcim_frontport f on f.device_id = d.id and f.name ~ '^Port [1-7]$'
          join ${partner('0')} join dcim_interface i on i.device_id = o.id and i.name = 'et-0/0/' || (substring(f.name from 6)::int - 1)
          where d.slot = 24`, [sites], 'smf-os2')),
    },
    {
      label: 'Cables: power',
      run: async (db) =>
        (await demoCables(db, 'dcim.powerport', 'dcim.powerfeed', `${dev}
          select p.id as a_id, f.id as b_id from dev d join dcim_powerport p on p.device_id = d.id
          join dcim_rack r on r.id = d.rack_id join dcim_powerfeed f on f.rack_id = r.id and f.name = r.name || case when d.slot = 21 then '-A' else '-B' end
          where d.slot in (21, 22)`, [sites], 'power')) +
        (await demoCables(db, 'dcim.poweroutlet', 'dcim.powerport', `${dev}
          select o2.id as a_id, p.id as b_id from dev d join dcim_powerport p on p.device_id = d.id and p.name in ('PSU1', 'PSU2')
          join ${partner(`case when p.name = 'PSU1' then 21 else 22 end`)} join dcim_poweroutlet o2 on o2.device_id = o.id and o2.name = 'Outlet ' || (d.slot + 1)
          where d.slot <= 20`, [sites], 'power')),
    },
    { label: 'Cable paths', run: (db) => demoPaths(db, registry, sites) },
  ];
}
