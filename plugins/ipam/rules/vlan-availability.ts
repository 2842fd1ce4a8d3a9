import { ParamError, lastValue, parseWholeNumber, type Db, type FilterNode, type QueryFilter, type Row } from 'patchbay';

/** Where a device, VM or site sits: the scopes whose VLAN groups it may use (each with its ancestors). */
export interface Place {
  site: number | null;
  regions: number[];
  siteGroups: number[];
  locations: number[];
  rack: number | null;
  /** A virtual machine's cluster and cluster group. */
  cluster?: number | null;
  clusterGroup?: number | null;
}

/** `table`'s rows `ids` and their ancestors (a tree of dcim). */
const withAncestors = (db: Db, table: string, ids: number[]) =>
  db
    .withRecursive('up', (q) =>
      q.select('id', 'parent_id').from(table).whereIn('id', ids).union((u) => u.select('t.id', 't.parent_id').from(`${table} as t`).join('up', 't.id', 'up.parent_id')),
    )
    .select('id')
    .from('up');

/**
 * VLANs usable at `place` (NetBox's `get_for_site`, `get_for_device`, `get_for_virtualmachine`): those of groups
 * scoped to its regions or site groups (or their ancestors), its site, locations (or ancestors), rack, cluster or
 * cluster group; global ones; and the site's own VLANs.
 */
export function usableAt(place: Place): FilterNode {
  return {
    op: 'sql',
    condition: (qb, alias, _m, db) => {
      const type = (key: string) => db('core_objecttype').select('id').where({ app_label: key.split('.')[0], model: key.split('.')[1] });
      const scoped = db('ipam_vlangroup as g').select('g.id').where((w) => {
        const scope = (model: string, ids: ReturnType<typeof withAncestors> | number[]) =>
          w.orWhere((q) => q.whereIn('g.scope_type_id', type(model)).whereIn('g.scope_id', ids));
        if (place.regions.length) scope('dcim.region', withAncestors(db, 'dcim_region', place.regions));
        if (place.siteGroups.length) scope('dcim.sitegroup', withAncestors(db, 'dcim_sitegroup', place.siteGroups));
        if (place.site) scope('dcim.site', [place.site]);
        if (place.locations.length) scope('dcim.location', withAncestors(db, 'dcim_location', place.locations));
        if (place.rack) scope('dcim.rack', [place.rack]);
        if (place.cluster) scope('virtualization.cluster', [place.cluster]);
        if (place.clusterGroup) scope('virtualization.clustergroup', [place.clusterGroup]);
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
    return { site: id, regions: present(site.region_id), siteGroups: present(site.group_id), locations: [], rack: null };
  }
  const device = (await db('dcim_device as d')
    .leftJoin('dcim_site as s', 's.id', 'd.site_id')
    .select('d.site_id', 'd.location_id', 'd.rack_id', 's.region_id', 's.group_id')
    .where('d.id', id)
    .first()) as Row | undefined;
  if (!device) throw new ParamError(`Select a valid choice. ${value} is not one of the available choices.`);
  return {
    site: device.site_id as number | null, regions: present(device.region_id), siteGroups: present(device.group_id),
    locations: present(device.location_id), rack: device.rack_id as number | null,
  };
}

/** An optional id as a list of none or one. */
export const present = (id: unknown): number[] => (id === null || id === undefined ? [] : [id as number]);

/** `?available_at_site=<id>`, `?available_on_device=<id>`: the VLANs that place may use. */
export const vlanAvailabilityFilters: Record<string, QueryFilter> = {
  available_at_site: { suffixes: [], build: async (_s, values, ctx) => usableAt(await placeOf(ctx.db, 'dcim_site', lastValue(values))) },
  available_on_device: { suffixes: [], build: async (_s, values, ctx) => usableAt(await placeOf(ctx.db, 'dcim_device', lastValue(values))) },
};

/** `?interface_id=` (`?vminterface_id=`): the VLANs of one interface of `table`, untagged or tagged (through `join`). */
export function vlansOfInterface(table: string, join: string, column: string): QueryFilter {
  return {
    suffixes: [],
    build: (_s, values) => {
      const id = parseWholeNumber(lastValue(values));
      return {
        op: 'sql',
        condition: (qb, alias, _m, db) =>
          void qb.where((w) =>
            w.whereIn(`${alias}.id`, db(table).select('untagged_vlan_id').where('id', id).whereNotNull('untagged_vlan_id'))
              .orWhereIn(`${alias}.id`, db(join).select('vlan_id').where(column, id)),
          ),
      };
    },
  };
}
