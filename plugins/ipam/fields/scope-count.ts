import { ComputedField, type RenderContext } from '../../../kernel/index.js';

/** The counted-on kind of place, and how a site or location reaches it. */
type Place = 'region' | 'sitegroup' | 'site' | 'location';

/** The column of `dcim_site` naming a region or site group. */
const SITE_COLUMN: Partial<Record<Place, string>> = { region: 'region_id', sitegroup: 'group_id' };

/**
 * `prefix_count` of a region, site group, site or location: the prefixes whose scope is there, as NetBox counts its
 * cached scope (a prefix scoped to a site counts for the site, its region and its group; one scoped to a location
 * also for the location's site). Direct, not cumulative: a prefix in a child region does not count for the parent.
 */
export class PrefixScopeCount extends ComputedField {
  constructor(private readonly place: Place) {
    super();
  }

  protected override nestedValue(): 'omit' {
    return 'omit';
  }

  protected async load(ids: number[], ctx: RenderContext): Promise<Map<number, number>> {
    const type = (model: string) => ctx.registry.objectTypes.idOf(`dcim.${model}`) ?? 0;
    const direct = `select p.scope_id as id from ipam_prefix p where p.scope_type_id = ${type(this.place)} and p.scope_id = any(:ids)`;
    const parts = [direct];
    const viaSite = this.place === 'site' ? 'id' : SITE_COLUMN[this.place];
    if (viaSite) {
      if (this.place !== 'site') {
        parts.push(`select s.${viaSite} from ipam_prefix p join dcim_site s on s.id = p.scope_id where p.scope_type_id = ${type('site')} and s.${viaSite} = any(:ids)`);
      }
      parts.push(
        `select s.${viaSite} from ipam_prefix p join dcim_location l on l.id = p.scope_id join dcim_site s on s.id = l.site_id
         where p.scope_type_id = ${type('location')} and s.${viaSite} = any(:ids)`,
      );
    }
    const { rows } = (await ctx.db.raw(`select id, count(*)::int as n from (${parts.join(' union all ')}) x group by id`, { ids })) as {
      rows: { id: number; n: number }[];
    };
    return new Map(rows.map((r) => [r.id, r.n]));
  }
}
