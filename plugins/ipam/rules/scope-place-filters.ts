import { existingIds, not, parseWholeNumber, type Db, type FilterNode, type QueryFilter } from '../../../kernel/index.js';

type Place = 'region' | 'site_group' | 'site' | 'location';

const TABLES: Record<Place, { table: string; model: string; tree: boolean }> = {
  region: { table: 'dcim_region', model: 'region', tree: true },
  site_group: { table: 'dcim_sitegroup', model: 'sitegroup', tree: true },
  site: { table: 'dcim_site', model: 'site', tree: false },
  location: { table: 'dcim_location', model: 'location', tree: true },
};

/** `ids` of `table` and, for a tree, all their descendants. */
const subtree = (db: Db, table: string, ids: number[], tree: boolean) =>
  tree
    ? db
        .withRecursive('down', (q) => q.select('id').from(table).whereIn('id', ids).union((u) => u.select('t.id').from(`${table} as t`).join('down', 't.parent_id', 'down.id')))
        .select('id')
        .from('down')
    : ids;

/**
 * NetBox's scope filters on prefixes and clusters (`site_id`, `region`, `location`…, by id or slug): an object is at
 * a site when its scope is the site or one of its locations; in a region or site group (or below it) when its
 * scope is, or its site is. Computed from the scope as it is now, so a site moved to another region moves them too.
 */
export function scopeFilter(place: Place, by: 'id' | 'slug'): QueryFilter {
  const { table, tree } = TABLES[place];
  return {
    suffixes: ['n'],
    build: async (suffix, values, ctx) => {
      const ids = await existingIds(ctx.db, table, by, by === 'id' ? values.map(parseWholeNumber) : values);
      const node: FilterNode = {
        op: 'sql',
        condition: (qb, a, _m, db) => {
          const type = (model: string) => db('core_objecttype').select('id').where({ app_label: 'dcim', model });
          const scoped = (model: string, within: ReturnType<Db> | number[]) => (w: ReturnType<Db>) =>
            void w.whereIn(`${a}.scope_type_id`, type(model)).whereIn(`${a}.scope_id`, within);
          const chosen = subtree(db, table, ids, tree);
          qb.where((w) => {
            if (place === 'site' || place === 'location') {
              w.where(scoped(TABLES[place].model, chosen));
              if (place === 'site') w.orWhere(scoped('location', db('dcim_location').select('id').whereIn('site_id', chosen)));
              return;
            }
            const column = place === 'region' ? 'region_id' : 'group_id';
            const sites = db('dcim_site').select('id').whereIn(column, chosen);
            w.where(scoped(TABLES[place].model, chosen))
              .orWhere(scoped('site', sites))
              .orWhere(scoped('location', db('dcim_location').select('id').whereIn('site_id', sites)));
          });
        },
      };
      return suffix === 'n' ? not(node) : node;
    },
  };
}

/** The place filters of objects scoped to a region, site group, site or location (prefixes, clusters). */
export const scopePlaceFilters: Record<string, QueryFilter> = {
  region_id: scopeFilter('region', 'id'),
  region: scopeFilter('region', 'slug'),
  site_group_id: scopeFilter('site_group', 'id'),
  site_group: scopeFilter('site_group', 'slug'),
  site_id: scopeFilter('site', 'id'),
  site: scopeFilter('site', 'slug'),
  location_id: scopeFilter('location', 'id'),
  location: scopeFilter('location', 'slug'),
};
