import { existingIds, not, parseWholeNumber, type Db, type FilterNode, type QueryFilter } from 'patchbay';

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
 * Where the generic relation is, for objects placed through other rows (a circuit by its terminations): `rows`
 * selects `column` (the filtered object's id) from rows aliased `v`, on which the place condition applies.
 */
export interface PlacedThrough {
  rows: (db: Db) => ReturnType<Db>;
  column: string;
}

/**
 * NetBox's place filters (`site_id`, `region`, `location`…, by id or slug) on objects whose generic relation
 * `field` names a place (prefix and cluster scopes, circuit terminations): an object is at a site when the relation
 * names the site or one of its locations; in a region or site group (or below it) when it names it, or its site.
 * Computed from the relation as it is now, so a site moved to another region moves them too. With `through`, the
 * relation is on other rows that point at the object.
 */
export function scopeFilter(place: Place, by: 'id' | 'slug', field = 'scope', through?: PlacedThrough): QueryFilter {
  const { table, tree } = TABLES[place];
  return {
    suffixes: ['n'],
    build: async (suffix, values, ctx) => {
      const ids = await existingIds(ctx.db, table, by, by === 'id' ? values.map(parseWholeNumber) : values);
      const placed = (qb: ReturnType<Db>, a: string, db: Db) => {
        const type = (model: string) => db('core_objecttype').select('id').where({ app_label: 'dcim', model });
        const scoped = (model: string, within: ReturnType<Db> | number[]) => (w: ReturnType<Db>) =>
          void w.whereIn(`${a}.${field}_type_id`, type(model)).whereIn(`${a}.${field}_id`, within);
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
      };
      const node: FilterNode = {
        op: 'sql',
        condition: (qb, a, _m, db) => {
          if (!through) return placed(qb, a, db);
          const rows = through.rows(db).select(through.column);
          placed(rows, 'v', db);
          qb.whereIn(`${a}.id`, rows);
        },
      };
      return suffix === 'n' ? not(node) : node;
    },
  };
}

/** The place filters of objects whose relation `field` names a region, site group, site or location. */
export function placeFilters(field = 'scope', through?: PlacedThrough): Record<string, QueryFilter> {
  return {
    region_id: scopeFilter('region', 'id', field, through),
    region: scopeFilter('region', 'slug', field, through),
    site_group_id: scopeFilter('site_group', 'id', field, through),
    site_group: scopeFilter('site_group', 'slug', field, through),
    site_id: scopeFilter('site', 'id', field, through),
    site: scopeFilter('site', 'slug', field, through),
    location_id: scopeFilter('location', 'id', field, through),
    location: scopeFilter('location', 'slug', field, through),
  };
}

/** Prefixes' and clusters' scope. */
export const scopePlaceFilters = placeFilters();
