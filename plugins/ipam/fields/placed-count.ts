import type { Knex } from '@mikro-orm/knex';
import { ComputedField, idArray, type RenderContext } from 'patchbay';

/** The counted-on kind of place, and how a site or location reaches it. */
type Place = 'region' | 'sitegroup' | 'site' | 'location';

/** The column of `dcim_site` naming a region or site group. */
const SITE_COLUMN: Partial<Record<Place, string>> = { region: 'region_id', sitegroup: 'group_id' };

/**
 * `prefix_count` of a region, site group, site or location: the rows of `table` (prefixes) whose generic relation
 * `field` (scope) names it, as NetBox counts its cached place (a prefix scoped to a site counts for the site, its
 * region and its group; one scoped to a location also for the location's site). Direct, not cumulative: a prefix
 * in a child region does not count for the parent. Sites count circuit terminations the same way.
 */
export class PlacedCount extends ComputedField {
  constructor(private readonly place: Place, private readonly table = 'ipam_prefix', private readonly field = 'scope') {
    super();
  }

  protected override nestedValue(): 'omit' {
    return 'omit';
  }

  protected async load(ids: number[], ctx: RenderContext): Promise<Map<number, number>> {
    const all = await ctx.memo.get(`ipam.placed:${this.model.key}:${ids.join(',')}`, () => this.loadAll(ids, ctx));
    return all[this.name] ?? new Map();
  }

  /** Every placed count of the model (a site's prefixes and circuits) for the page, in one statement. */
  private async loadAll(ids: number[], ctx: RenderContext): Promise<Record<string, Map<number, number>>> {
    const fields = ctx.registry.outputFields(this.model, 'full').filter((f): f is PlacedCount => f instanceof PlacedCount);
    const bindings: Record<string, unknown> = { ids: idArray(ids) };
    const parts = await Promise.all(
      fields.map(async (field, k) => {
        // Only what the reader may view counts, where the reader says so (GraphQL).
        const countable = await ctx.countable?.(ctx.registry.find(field.counted(ctx))!);
        if (countable) bindings[`visible${k}`] = countable.ids;
        return field.sources(ctx, countable ? ` and p.id in (:visible${k})` : '').map((sql) => `select ${k} as k, id from (${sql}) x${k}`);
      }),
    );
    const { rows } = (await ctx.db.raw(`select k, id, count(*)::int as n from (${parts.flat().join(' union all ')}) x group by k, id`, bindings as Knex.ValueDict)) as {
      rows: { k: number; id: number; n: number }[];
    };
    const counts = Object.fromEntries(fields.map((f) => [f.name, new Map<number, number>()]));
    for (const row of rows) counts[fields[row.k].name].set(row.id, row.n);
    return counts;
  }

  /** The model of the counted objects: the one whose table the count reads. */
  private counted(ctx: RenderContext): string {
    return ctx.registry.all().find((m) => m.table === this.table)!.key;
  }

  /** Selects of `id` (the place), one row per object placed there: directly, through its site, through its location. */
  private sources(ctx: RenderContext, visible: string): string[] {
    const type = (model: string) => ctx.registry.objectTypes.idOf(`dcim.${model}`) ?? 0;
    const { table, field } = this;
    const parts = [`select p.${field}_id as id from ${table} p where p.${field}_type_id = ${type(this.place)} and p.${field}_id = any(cast(:ids as integer[]))${visible}`];
    const viaSite = this.place === 'site' ? 'id' : SITE_COLUMN[this.place];
    if (viaSite) {
      if (this.place !== 'site') {
        parts.push(`select s.${viaSite} as id from ${table} p join dcim_site s on s.id = p.${field}_id where p.${field}_type_id = ${type('site')} and s.${viaSite} = any(cast(:ids as integer[]))${visible}`);
      }
      parts.push(
        `select s.${viaSite} as id from ${table} p join dcim_location l on l.id = p.${field}_id join dcim_site s on s.id = l.site_id
         where p.${field}_type_id = ${type('location')} and s.${viaSite} = any(cast(:ids as integer[]))${visible}`,
      );
    }
    return parts;
  }
}
