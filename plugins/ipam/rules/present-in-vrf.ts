import { ParamError, lastValue, parseWholeNumber, type FilterNode, type QueryFilter } from 'patchbay';

/**
 * `?present_in_vrf_id=<id>` / `?present_in_vrf=<rd>`: objects of that VRF, or of a VRF exporting a route target the
 * VRF imports (what its routing table holds).
 */
function presentIn(key: 'id' | 'rd'): QueryFilter {
  return {
    suffixes: [],
    build: async (_s, values, ctx) => {
      const value = lastValue(values);
      const vrf = (await ctx.db('ipam_vrf').select('id').where(key, key === 'id' ? parseWholeNumber(value) : value).first()) as { id: number } | undefined;
      if (!vrf) throw new ParamError(`Select a valid choice. ${value} is not one of the available choices.`);
      const node: FilterNode = {
        op: 'sql',
        condition: (qb, alias, _m, db) =>
          void qb.where((w) =>
            w.where(`${alias}.vrf_id`, vrf.id).orWhereIn(
              `${alias}.vrf_id`,
              db('ipam_vrf_export_targets').select('vrf_id').whereIn('routetarget_id', db('ipam_vrf_import_targets').select('routetarget_id').where('vrf_id', vrf.id)),
            ),
          ),
      };
      return node;
    },
  };
}

export const presentInVrfFilters: Record<string, QueryFilter> = { present_in_vrf_id: presentIn('id'), present_in_vrf: presentIn('rd') };
