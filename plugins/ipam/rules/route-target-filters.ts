import { existingIds, not, parseWholeNumber, type FilterNode, type QueryFilter } from 'patchbay';

/** Route targets a VRF imports or exports (`?importing_vrf_id=`, `?exporting_vrf=<rd>`), through its join table. */
function byVrf(table: string, key: 'id' | 'rd'): QueryFilter {
  return {
    suffixes: ['n'],
    build: async (suffix, values, ctx) => {
      // Named VRFs must exist, as for any relation filter.
      const vrfs = key === 'id' ? values.map(parseWholeNumber) : await existingIds(ctx.db, 'ipam_vrf', 'rd', values);
      const node: FilterNode = {
        op: 'sql',
        condition: (qb, alias, _m, db) => void qb.whereIn(`${alias}.id`, db(table).select('routetarget_id').whereIn('vrf_id', vrfs)),
      };
      return suffix === 'n' ? not(node) : node;
    },
  };
}

export const routeTargetFilters: Record<string, QueryFilter> = {
  importing_vrf_id: byVrf('ipam_vrf_import_targets', 'id'),
  importing_vrf: byVrf('ipam_vrf_import_targets', 'rd'),
  exporting_vrf_id: byVrf('ipam_vrf_export_targets', 'id'),
  exporting_vrf: byVrf('ipam_vrf_export_targets', 'rd'),
};
