import { ValidationError, defineModel, f, not, or, parseWholeNumber, type FilterNode, type QueryFilter } from 'patchbay';
import { cabled } from '../cabling/cabled.js';
import { PowerFeedPhase, PowerFeedStatus, PowerFeedSupply, PowerFeedType } from '../choices/index.js';

/** A panel distributing power at a site (and location), feeding racks through its power feeds. */
export const PowerPanel = defineModel('dcim.powerpanel', {
  path: 'power-panels',
  verboseName: 'power panel',
  fields: {
    site: f.fk('dcim.site', { onDelete: 'protect', related: 'powerpanel_set' }),
    location: f.fk('dcim.location', { nullable: true, onDelete: 'protect', related: 'powerpanel_set' }),
    name: f.string({ max: 100 }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['site', 'name'] }],
  brief: ['name', 'description', 'powerfeed_count'],
  ordering: ['site', 'name'],
  search: ['name', 'description'],
  relatedFilters: { region: 'site__region', site_group: 'site__group' },
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts', 'imageAttachments'],
  async validate(row, ctx) {
    if (!row.location_id) return;
    const location = await ctx.stored(ctx.registry.get('dcim.location'), row.location_id as number);
    if (location && location.site_id !== row.site_id) {
      const site = await ctx.stored(ctx.registry.get('dcim.site'), row.site_id as number);
      throw ValidationError.of('location', `Location ${location.name} (${(await ctx.stored(ctx.registry.get('dcim.site'), location.site_id as number))?.name}) is in a different site than ${site?.name}.`);
    }
  },
});

/** NetBox's available power of a feed (VA), as SQL over a feed row aliased `a`: volts × amps × utilization, ×√3 on three phases. */
const availablePower = (a: string) =>
  `round(abs(${a}.voltage) * ${a}.amperage * ${a}.max_utilization / 100.0 * (case when ${a}.phase = 'three-phase' then 1.732 else 1 end))`;

const COMPARE: Record<string, string> = { '': '=', n: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' };

/** `?available_power=` with the number lookups: the power a feed delivers, worked out from its ratings. */
const availablePowerFilter: QueryFilter = {
  suffixes: ['n', 'lt', 'lte', 'gt', 'gte'],
  build: (suffix, values) => {
    const node = or(values.map(parseWholeNumber).map((n): FilterNode => ({
      op: 'sql',
      condition: (qb, alias) => void qb.whereRaw(`${availablePower(alias)} ${COMPARE[suffix]} ?`, [n]),
    })));
    return suffix === 'n' ? not(node) : node;
  },
};

/** A feed from a power panel to a rack, with its electrical ratings. */
export const PowerFeed = defineModel('dcim.powerfeed', {
  path: 'power-feeds',
  verboseName: 'power feed',
  fields: {
    power_panel: f.fk('dcim.powerpanel', { onDelete: 'protect', countAs: 'powerfeed_count', related: 'powerfeeds' }),
    rack: f.fk('dcim.rack', { nullable: true, onDelete: 'protect', countAs: 'powerfeed_count', related: 'powerfeeds' }),
    name: f.string({ max: 100 }),
    status: f.choice(PowerFeedStatus, { default: 'active' }),
    type: f.choice(PowerFeedType, { default: 'primary' }),
    supply: f.choice(PowerFeedSupply, { default: 'ac' }),
    phase: f.choice(PowerFeedPhase, { default: 'single-phase' }),
    voltage: f.integer({ min: -32768, max: 32767, default: 120 }),
    amperage: f.integer({ min: 1, max: 32767, default: 15 }),
    max_utilization: f.integer({ min: 1, max: 100, default: 80, label: 'Max utilization (%)' }),
    ...cabled({
      connectsTo: ['dcim.powerport'],
      place: `select e.id, null::int as device_id, e.rack_id, r.location_id, pp.site_id from dcim_powerfeed e
        join dcim_powerpanel pp on pp.id = e.power_panel_id left join dcim_rack r on r.id = e.rack_id`,
    }),
    description: f.string({ max: 200, blank: true }),
    tenant: f.fk('tenancy.tenant', { nullable: true, onDelete: 'protect', related: 'power_feeds' }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['power_panel', 'name'] }],
  brief: ['name', 'description', 'cable', '_occupied'],
  ordering: ['power_panel', 'name'],
  search: ['name', 'description', 'power_panel', 'comments'],
  relatedFilters: { region: 'power_panel__site__region', site_group: 'power_panel__site__group', site: 'power_panel__site' },
  filters: {
    available_power: availablePowerFilter,
  },
  features: ['tags', 'customFields', 'changelog', 'journal', 'cabled'],
  async validate(row, ctx) {
    if (row.voltage === 0) throw ValidationError.of('voltage', 'Voltage cannot be zero (0).');
    if (Number(row.voltage) < 0 && row.supply === 'ac') throw ValidationError.of('voltage', 'Voltage cannot be negative for AC supply');
    if (!row.rack_id) return;
    const [rack, panel] = await Promise.all([
      ctx.stored(ctx.registry.get('dcim.rack'), row.rack_id as number),
      ctx.stored(PowerPanel, row.power_panel_id as number),
    ]);
    if (rack && panel && rack.site_id !== panel.site_id) {
      const sites = ctx.registry.get('dcim.site');
      const [rackSite, panelSite] = await Promise.all([ctx.stored(sites, rack.site_id as number), ctx.stored(sites, panel.site_id as number)]);
      throw ValidationError.of('rack', `Rack ${rack.name} (${rackSite?.name}) and power panel ${panel.name} (${panelSite?.name}) are in different sites.`);
    }
  },
});
