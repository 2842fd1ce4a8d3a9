import type { Db, DemoPart, DemoStep, ModelRegistry } from 'patchbay';
import { cablingSteps } from './cabling.js';
import { DEVICES_PER_RACK, DEVICE_TYPES, LINE_CARD, MANUFACTURERS, PLATFORMS, REGIONS, ROLES, SITE_GROUPS, typeOfSlot, type DemoType } from './catalog.js';

/** Rows a statement inserted (`on conflict do nothing` skips what a previous run made). */
async function inserted(db: Db, sql: string, bindings: readonly unknown[] = []): Promise<number> {
  const result = (await db.raw(sql, bindings as never[])) as { rowCount: number | null };
  return result.rowCount ?? 0;
}

const pad = (n: number) => String(n).padStart(4, '0');

/** The slugs of the demo sites a part builds (`dc-0001`…), which every plugin's demo steps build on. */
export const demoSites = (part: DemoPart): string[] => Array.from({ length: part.last - part.first + 1 }, (_, i) => `dc-${pad(part.first + i)}`);

const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const countries = REGIONS.flatMap((r) => r.countries);

/** The templates of one demo type, expanded (`Ethernet{n}` over its range). */
function interfaceTemplates(type: DemoType): { name: string; type: string; mgmt: boolean }[] {
  return type.interfaces.flatMap((i) => {
    if (!i.range) return [{ name: i.name, type: i.type, mgmt: !!i.mgmt }];
    const [from, to] = i.range;
    return Array.from({ length: to - from + 1 }, (_, n) => ({ name: i.name.replace('{n}', String(from + n)), type: i.type, mgmt: !!i.mgmt }));
  });
}

/** Names `prefix 1`…`prefix count`. */
const numbered = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);

/** Inserts templates of `table` for a device type given by model: one row per name, extra columns as given. */
function templates(db: Db, table: string, model: string, rows: Record<string, unknown>[]): Promise<number> {
  if (!rows.length) return Promise.resolve(0);
  const columns = Object.keys(rows[0]);
  // Parameters are text unless cast: booleans and numbers say what they are.
  const cast = (value: unknown) => (typeof value === 'boolean' ? '?::boolean' : typeof value === 'number' ? '?::int' : '?');
  const values = rows.map((row) => `(${columns.map((c) => cast(row[c])).join(', ')})`).join(', ');
  return inserted(
    db,
    `insert into ${table} (device_type_id, ${columns.join(', ')}, created, last_updated)
     select t.id, ${columns.map((c) => `v.${c}`).join(', ')}, now(), now()
     from (values ${values}) as v(${columns.join(', ')}) cross join dcim_devicetype t where t.model = ?
     on conflict do nothing`,
    [...rows.flatMap((r) => columns.map((c) => r[c])), model],
  );
}

/**
 * The dcim demo data: regions, site groups, sites, locations, racks, manufacturers, device types with their
 * component templates, devices placed in racks, their components, line cards installed in the routers, and the
 * cabling between them with its paths. Every statement is set-based and skips what exists, so a rerun with larger
 * sizes grows the data set.
 */
export function dcimDemoSteps(sizes: Record<string, number>, registry: ModelRegistry, part: DemoPart): DemoStep[] {
  const sites = demoSites(part);
  const perSite = sizes['devices-per-site'];
  const racksPerSite = Math.ceil(perSite / DEVICES_PER_RACK);
  const demoDevices = `select id, device_type_id from dcim_device where site_id in (select id from dcim_site where slug = any(?))`;

  const catalog: DemoStep[] = [
    {
      label: 'Regions and site groups',
      run: async (db) =>
        (await inserted(db, `insert into dcim_region (name, slug, created, last_updated) select v.n, v.s, now(), now() from (values ${REGIONS.map(() => '(?, ?)').join(', ')}) v(n, s) on conflict do nothing`,
          REGIONS.flatMap((r) => [r.name, slugOf(r.name)]))) +
        (await inserted(db, `insert into dcim_region (name, slug, parent_id, created, last_updated)
            select v.n, v.s, p.id, now(), now() from (values ${countries.map(() => '(?, ?, ?)').join(', ')}) v(n, s, parent)
            join dcim_region p on p.name = v.parent and p.parent_id is null on conflict do nothing`,
          REGIONS.flatMap((r) => r.countries.flatMap(([c]) => [c, slugOf(c), r.name])))) +
        (await inserted(db, `insert into dcim_sitegroup (name, slug, created, last_updated) select v.n, v.s, now(), now() from (values ${SITE_GROUPS.map(() => '(?, ?)').join(', ')}) v(n, s) on conflict do nothing`,
          SITE_GROUPS.flatMap((g) => [g, slugOf(g)]))),
    },
    {
      label: 'Manufacturers, roles and platforms',
      run: async (db) =>
        (await inserted(db, `insert into dcim_manufacturer (name, slug, created, last_updated) select v.n, v.s, now(), now() from (values ${MANUFACTURERS.map(() => '(?, ?)').join(', ')}) v(n, s) on conflict do nothing`,
          MANUFACTURERS.flatMap((m) => [m, slugOf(m)]))) +
        (await inserted(db, `insert into dcim_devicerole (name, slug, color, created, last_updated) select v.n, v.s, v.c, now(), now() from (values ${ROLES.map(() => '(?, ?, ?)').join(', ')}) v(n, s, c) on conflict do nothing`,
          ROLES.flatMap(([name, color]) => [name, slugOf(name), color]))) +
        (await inserted(db, `insert into dcim_rackrole (name, slug, color, created, last_updated) values ('Compute', 'compute', '3f51b5', now(), now()) on conflict do nothing`)) +
        (await inserted(db, `insert into dcim_platform (name, slug, manufacturer_id, created, last_updated)
            select v.n, v.s, m.id, now(), now() from (values ${PLATFORMS.map(() => '(?, ?, ?)').join(', ')}) v(n, s, mf) left join dcim_manufacturer m on m.name = v.mf on conflict do nothing`,
          PLATFORMS.flatMap(([name, maker]) => [name, slugOf(name), maker]))),
    },
    {
      label: 'Device types, module types and their templates',
      run: async (db) => {
        let rows = await inserted(db, `insert into dcim_devicetype (manufacturer_id, default_platform_id, model, slug, u_height, is_full_depth, created, last_updated)
            select m.id, p.id, v.model, v.slug, v.u, v.deep, now(), now() from (values ${DEVICE_TYPES.map(() => '(?, ?, ?, ?, ?::numeric, ?::boolean)').join(', ')}) v(maker, platform, model, slug, u, deep)
            join dcim_manufacturer m on m.name = v.maker left join dcim_platform p on p.name = v.platform on conflict do nothing`,
          DEVICE_TYPES.flatMap((t) => [t.manufacturer, t.platform, t.model, slugOf(t.model), t.uHeight, t.fullDepth]));
        for (const type of DEVICE_TYPES) {
          rows += await templates(db, 'dcim_interfacetemplate', type.model, interfaceTemplates(type).map((i) => ({ name: i.name, type: i.type, mgmt_only: i.mgmt })));
          rows += await templates(db, 'dcim_powerporttemplate', type.model, numbered('PSU', type.powerPorts).map((name) => ({ name, type: 'iec-60320-c14', maximum_draw: 750 })));
          rows += await templates(db, 'dcim_consoleporttemplate', type.model, numbered('Console', type.consolePorts).map((name) => ({ name, type: 'rj-45' })));
          rows += await templates(db, 'dcim_modulebaytemplate', type.model, Array.from({ length: type.moduleBays }, (_, n) => ({ name: `FPC ${n}`, position: String(n) })));
          if (type.frontPorts) rows += await templates(db, 'dcim_rearporttemplate', type.model, [{ name: 'Rear', type: '8p8c', positions: type.frontPorts }]);
          rows += await inserted(db, `insert into dcim_frontporttemplate (device_type_id, name, type, rear_port_id, rear_port_position, created, last_updated)
              select r.device_type_id, 'Port ' || n, '8p8c', r.id, n, now(), now() from dcim_rearporttemplate r join dcim_devicetype t on t.id = r.device_type_id
              cross join generate_series(1, ?) n where t.model = ? on conflict do nothing`, [type.frontPorts, type.model]);
          rows += await inserted(db, `insert into dcim_poweroutlettemplate (device_type_id, name, type, power_port_id, feed_leg, created, last_updated)
              select t.id, 'Outlet ' || n, 'iec-60320-c13', p.id, null, now(), now() from dcim_devicetype t join dcim_powerporttemplate p on p.device_type_id = t.id
              cross join generate_series(1, ?) n where t.model = ? on conflict do nothing`, [type.powerOutlets, type.model]);
        }
        rows += await inserted(db, `insert into dcim_moduletype (manufacturer_id, model, created, last_updated) select id, ?, now(), now() from dcim_manufacturer where name = ? on conflict do nothing`,
          [LINE_CARD.model, LINE_CARD.manufacturer]);
        rows += await inserted(db, `insert into dcim_interfacetemplate (module_type_id, name, type, created, last_updated)
            select m.id, 'et-{module}/0/' || (n - 1), '100gbase-x-qsfp28', now(), now() from dcim_moduletype m cross join generate_series(1, ?) n where m.model = ? on conflict do nothing`,
          [LINE_CARD.interfaces, LINE_CARD.model]);
        return rows;
      },
    },
  ];
  return [
    ...(part.first === 1 ? catalog : []),
    {
      label: 'Sites, locations and racks',
      run: async (db) =>
        (await inserted(db, `insert into dcim_site (name, slug, status, region_id, group_id, time_zone, facility, description, created, last_updated)
            select 'DC ' || lpad(i::text, 4, '0'), 'dc-' || lpad(i::text, 4, '0'), 'active', r.id, g.id, c.zone, 'Building ' || (i % 7 + 1), 'Demo site', now(), now()
            from generate_series(?::int, ?::int) i
            join (select * from (values ${countries.map(() => '(?::int, ?, ?)').join(', ')}) v(k, name, zone)) c on c.k = (i - 1) % ?::int
            join dcim_region r on r.name = c.name
            join (select * from (values ${SITE_GROUPS.map(() => '(?::int, ?)').join(', ')}) v(k, name)) gv on gv.k = (i - 1) % ?::int
            join dcim_sitegroup g on g.name = gv.name
            on conflict do nothing`,
          [part.first, part.last, ...countries.flatMap(([name, zone], k) => [k, name, zone]), countries.length, ...SITE_GROUPS.flatMap((name, k) => [k, name]), SITE_GROUPS.length])) +
        (await inserted(db, `insert into dcim_location (name, slug, site_id, status, created, last_updated)
            select h.name, h.slug, s.id, 'active', now(), now() from dcim_site s cross join (values ('Hall A', 'hall-a'), ('Hall B', 'hall-b')) h(name, slug)
            where s.slug = any(?) on conflict do nothing`, [sites])) +
        (await inserted(db, `insert into dcim_rack (name, site_id, location_id, status, role_id, width, u_height, starting_unit, desc_units, created, last_updated)
            select 'R' || lpad(r::text, 2, '0'), s.id, l.id, 'active', (select id from dcim_rackrole where slug = 'compute'), 19, 42, 1, false, now(), now()
            from dcim_site s cross join generate_series(1, ?) r
            join dcim_location l on l.site_id = s.id and l.slug = case when r % 2 = 1 then 'hall-a' else 'hall-b' end
            where s.slug = any(?) on conflict do nothing`, [racksPerSite, sites])),
    },
    {
      label: 'Devices in racks',
      run: (db) => {
        const slots = Array.from({ length: Math.min(perSite, 25) }, (_, k) => [k, typeOfSlot(k)]);
        const roleShort = new Map(ROLES.map(([name, , short]) => [name, short]));
        return inserted(db, `with kinds(slot, model) as (values ${slots.map(() => '(?::int, ?)').join(', ')}),
          shorts(role, short) as (values ${DEVICE_TYPES.map(() => '(?, ?)').join(', ')}),
          planned as (
            select s.id as site_id, s.slug, k, k / ${DEVICES_PER_RACK} + 1 as rack_no, t.id as type_id, t.u_height, t.default_platform_id, r.id as role_id, sh.short
            from dcim_site s cross join generate_series(0, ? - 1) k
            join kinds on kinds.slot = k % 25 join dcim_devicetype t on t.model = kinds.model
            join shorts sh on sh.role = (select role from (values ${DEVICE_TYPES.map(() => '(?, ?)').join(', ')}) m(model, role) where m.model = t.model)
            join dcim_devicerole r on r.name = sh.role
            where s.slug = any(?)
          ),
          placed as (
            select *, case when u_height > 0 then 1 + coalesce(sum(u_height) over (partition by site_id, rack_no order by k rows between unbounded preceding and 1 preceding), 0) end as position
            from planned
          )
          insert into dcim_device (name, device_type_id, role_id, platform_id, site_id, location_id, rack_id, position, face, status, airflow, serial, created, last_updated)
          select p.slug || '-' || p.short || '-' || lpad(p.k::text, 3, '0'), p.type_id, p.role_id, p.default_platform_id, p.site_id, rk.location_id, rk.id,
            p.position, case when p.position is null then '' else 'front' end, 'active', '', 'SN' || p.site_id || 'K' || p.k, now(), now()
          from placed p join dcim_rack rk on rk.site_id = p.site_id and rk.name = 'R' || lpad(p.rack_no::text, 2, '0')
          on conflict do nothing`,
          [
            ...slots.flat(),
            ...DEVICE_TYPES.flatMap((t) => [t.role, roleShort.get(t.role)]),
            perSite,
            ...DEVICE_TYPES.flatMap((t) => [t.model, t.role]),
            sites,
          ]);
      },
    },
    ...componentSteps(demoDevices, sites),
    {
      label: 'Line cards and their interfaces',
      run: async (db) =>
        (await inserted(db, `insert into dcim_module (device_id, module_bay_id, module_type_id, status, serial, created, last_updated)
            select b.device_id, b.id, mt.id, 'active', '', now(), now() from dcim_modulebay b join (${demoDevices}) d on d.id = b.device_id
            cross join dcim_moduletype mt where mt.model = ? and b.position::int < ? on conflict do nothing`, [sites, LINE_CARD.model, LINE_CARD.installedIn])) +
        (await inserted(db, `insert into dcim_interface (device_id, module_id, name, label, type, created, last_updated)
            select m.device_id, m.id, replace(t.name, '{module}', b.position), '', t.type, now(), now()
            from dcim_module m join dcim_modulebay b on b.id = m.module_bay_id join (${demoDevices}) d on d.id = m.device_id
            join dcim_interfacetemplate t on t.module_type_id = m.module_type_id on conflict do nothing`, [sites])),
    },
    ...cablingSteps(sites, registry),
  ];
}

/** Each kind of component, instantiated from the device types' templates for every demo device at once. */
function componentSteps(demoDevices: string, sites: string[]): DemoStep[] {
  const from = (template: string) => `from (${demoDevices}) d join ${template} t on t.device_type_id = d.device_type_id`;
  return [
    {
      label: 'Interfaces',
      run: (db) => inserted(db, `insert into dcim_interface (device_id, name, label, type, mgmt_only, created, last_updated)
        select d.id, t.name, t.label, t.type, t.mgmt_only, now(), now() ${from('dcim_interfacetemplate')} on conflict do nothing`, [sites]),
    },
    {
      label: 'Console and power ports',
      run: async (db) =>
        (await inserted(db, `insert into dcim_consoleport (device_id, name, label, type, created, last_updated)
          select d.id, t.name, t.label, t.type, now(), now() ${from('dcim_consoleporttemplate')} on conflict do nothing`, [sites])) +
        (await inserted(db, `insert into dcim_powerport (device_id, name, label, type, maximum_draw, created, last_updated)
          select d.id, t.name, t.label, t.type, t.maximum_draw, now(), now() ${from('dcim_powerporttemplate')} on conflict do nothing`, [sites])),
    },
    {
      label: 'Power outlets',
      run: (db) => inserted(db, `insert into dcim_poweroutlet (device_id, name, label, type, power_port_id, created, last_updated)
        select d.id, t.name, t.label, t.type, pp.id, now(), now() ${from('dcim_poweroutlettemplate')}
        left join dcim_powerporttemplate pt on pt.id = t.power_port_id left join dcim_powerport pp on pp.device_id = d.id and pp.name = pt.name
        on conflict do nothing`, [sites]),
    },
    {
      label: 'Front and rear ports',
      run: async (db) =>
        (await inserted(db, `insert into dcim_rearport (device_id, name, label, type, positions, created, last_updated)
          select d.id, t.name, t.label, t.type, t.positions, now(), now() ${from('dcim_rearporttemplate')} on conflict do nothing`, [sites])) +
        (await inserted(db, `insert into dcim_frontport (device_id, name, label, type, rear_port_id, rear_port_position, created, last_updated)
          select d.id, t.name, t.label, t.type, rp.id, t.rear_port_position, now(), now() ${from('dcim_frontporttemplate')}
          join dcim_rearporttemplate rt on rt.id = t.rear_port_id join dcim_rearport rp on rp.device_id = d.id and rp.name = rt.name
          on conflict do nothing`, [sites])),
    },
    {
      label: 'Module bays',
      run: (db) => inserted(db, `insert into dcim_modulebay (device_id, name, label, position, created, last_updated)
        select d.id, t.name, t.label, t.position, now(), now() ${from('dcim_modulebaytemplate')}
        -- Bays outside modules have no unique key to conflict on (module is null), so existing ones are skipped here.
        where not exists (select 1 from dcim_modulebay b where b.device_id = d.id and b.module_id is null and b.name = t.name)`, [sites]),
    },
    {
      label: 'Power panels and feeds',
      // A panel per hall, and an A and B feed (three-phase 230 V, 32 A) from it to each rack of the hall.
      run: async (db) =>
        (await inserted(db, `insert into dcim_powerpanel (site_id, location_id, name, description, comments, created, last_updated)
          select s.id, l.id, 'Panel ' || upper(substring(l.slug from 6)), '', '', now(), now()
          from dcim_site s join dcim_location l on l.site_id = s.id and l.slug in ('hall-a', 'hall-b') where s.slug = any(?) on conflict do nothing`, [sites])) +
        (await inserted(db, `insert into dcim_powerfeed (power_panel_id, rack_id, name, status, type, supply, phase, voltage, amperage, max_utilization, mark_connected,
            description, comments, created, last_updated)
          select p.id, r.id, r.name || '-' || f.side, 'active', f.type, 'ac', 'three-phase', 230, 32, 80, false, '', '', now(), now()
          from dcim_site s join dcim_rack r on r.site_id = s.id join dcim_powerpanel p on p.site_id = s.id and p.location_id = r.location_id
          cross join (values ('A', 'primary'), ('B', 'redundant')) f(side, type)
          where s.slug = any(?) on conflict do nothing`, [sites])),
    },
  ];
}
