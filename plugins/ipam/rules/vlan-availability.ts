import { ParamError, lastValue, parseWholeNumber, type Db, type FilterNode, type QueryFilter, type Row } from '../../../kernel/index.js';

/** Where a device or site sits: the scopes whose VLAN groups it may use. */
interface Place {
  site: number | null;
  region: number | null;
  siteGroup: number | null;
  location: number | null;
  rack: number | null;
}

/** `table`'s row `id` and its ancestors (a tree of dcim). */
const withAncestors = (db: Db, table: string, id: number) =>
  db
    .withRecursive('up', (q) =>
      q.select('id', 'parent_id').from(table).where('id', id).union((u) => u.select('t.id', 't.parent_id').from(`${table} as t`).join('up', 't.id', 'up.parent_id')),
    )
    .select('id')
    .from('up');

/**
 * VLANs usable at `place` (NetBox's `get_for_site` / `get_for_device`): those of groups scoped to its region or site
 * group (or their ancestors), its site, location (or ancestors) or rack; global ones; and the site's own VLANs.
 */
function usableAt(place: Place): FilterNode {
  return {
    op: 'sql',
    condition: (qb, alias, _m, db) => {
      const type = (model: string) => db('core_objecttype').select('id').where({ app_label: 'dcim', model });
      const scoped = db('ipam_vlangroup as g').select('g.id').where((w) => {
        const scope = (model: string, ids: ReturnType<typeof withAncestors> | number[]) =>
          w.orWhere((q) => q.whereIn('g.scope_type_id', type(model)).whereIn('g.scope_id', ids));
        if (place.region) scope('region', withAncestors(db, 'dcim_region', place.region));
        if (place.siteGroup) scope('sitegroup', withAncestors(db, 'dcim_sitegroup', place.siteGroup));
        if (place.site) scope('site', [place.site]);
        if (place.location) scope('location', withAncestors(db, 'dcim_location', place.location));
        if (place.rack) scope('rack', [place.rack]);
        w.orWhereNull('g.scope_id');
      });
      qb.where((w) => {
        w.whereIn(`${alias}.group_id`, scoped).whereNull(`${alias}.site_id`);
        if (place.site) w.orWhere((q) => q.whereIn(`${alias}.group_id`, scoped).where(`${alias}.site_id`, place.site!));
        w.orWhere((q) => q.whereNull(`${alias}.group_id`).whereNull(`${alias}.site_id`));
        if (place.site) w.orWhere((q) => q.whereNull(`${alias}.group_id`).where(`${alias}.site_id`, place.site!));
      });
    },
  };
}

async function placeOf(db: Db, table: 'dcim_site' | 'dcim_device', value: string): Promise<Place> {
  const id = parseWholeNumber(value);
  if (table === 'dcim_site') {
    const site = (await db('dcim_site').select('id', 'region_id', 'group_id').where('id', id).first()) as Row | undefined;
    if (!site) throw new ParamError(`Select a valid choice. ${value} is not one of the available choices.`);
    return { site: id, region: site.region_id as number | null, siteGroup: site.group_id as number | null, location: null, rack: null };
  }
  const device = (await db('dcim_device as d')
    .leftJoin('dcim_site as s', 's.id', 'd.site_id')
    .select('d.site_id', 'd.location_id', 'd.rack_id', 's.region_id', 's.group_id')
    .where('d.id', id)
    .first()) as Row | undefined;
  if (!device) throw new ParamError(`Select a valid choice. ${value} is not one of the available choices.`);
  return {
    site: device.site_id as number | null, region: device.region_id as number | null, siteGroup: device.group_id as number | null,
    location: device.location_id as number | null, rack: device.rack_id as number | null,
  };
}

/** `?available_at_site=<id>`, `?available_on_device=<id>`: the VLANs that place may use. */
export const vlanAvailabilityFilters: Record<string, QueryFilter> = {
  available_at_site: { suffixes: [], build: async (_s, values, ctx) => usableAt(await placeOf(ctx.db, 'dcim_site', lastValue(values))) },
  available_on_device: { suffixes: [], build: async (_s, values, ctx) => usableAt(await placeOf(ctx.db, 'dcim_device', lastValue(values))) },
};
