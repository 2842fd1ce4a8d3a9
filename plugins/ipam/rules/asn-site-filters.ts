import { existingIds, not, parseWholeNumber, type FilterNode, type QueryFilter } from 'patchbay';

/**
 * ASNs by the sites using them (`?site_id=`, `?site=<slug>`) or those sites' groups (`?site_group_id=`,
 * `?site_group=<slug>`, with their descendants), through the sites' `asns`.
 */
function bySite(table: 'dcim_site' | 'dcim_sitegroup', key: 'id' | 'slug'): QueryFilter {
  return {
    suffixes: ['n'],
    build: async (suffix, values, ctx) => {
      const ids = await existingIds(ctx.db, table, key, key === 'id' ? values.map(parseWholeNumber) : values);
      const node: FilterNode = {
        op: 'sql',
        condition: (qb, alias, _m, db) => {
          const sites = table === 'dcim_site'
            ? ids
            : db('dcim_site').select('id').whereIn('group_id', db.withRecursive('down', (q) =>
              q.select('id').from('dcim_sitegroup').whereIn('id', ids).union((u) => u.select('g.id').from('dcim_sitegroup as g').join('down', 'g.parent_id', 'down.id')),
            ).select('id').from('down'));
          qb.whereIn(`${alias}.id`, db('dcim_site_asns').select('asn_id').whereIn('site_id', sites));
        },
      };
      return suffix === 'n' ? not(node) : node;
    },
  };
}

export const asnSiteFilters: Record<string, QueryFilter> = {
  site_id: bySite('dcim_site', 'id'),
  site: bySite('dcim_site', 'slug'),
  site_group_id: bySite('dcim_sitegroup', 'id'),
  site_group: bySite('dcim_sitegroup', 'slug'),
};
