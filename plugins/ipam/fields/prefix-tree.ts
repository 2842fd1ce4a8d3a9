import { ReadOnlyField, idArray, not, or, parseWholeNumber, type FieldRenderer, type FilterNode, type QueryFilter, type RenderContext, type Row, type ValueSchema } from 'patchbay';

type Measure = 'children' | 'depth';

/** Prefixes of the same VRF strictly inside (`children`) or around (`depth`) prefix `p`. */
const RELATED: Record<Measure, string> = {
  children: 'c.vrf_id is not distinct from p.vrf_id and c.prefix << p.prefix',
  depth: 'c.vrf_id is not distinct from p.vrf_id and c.prefix >> p.prefix',
};

const COMPARE: Record<string, string> = { '': '=', n: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' };

/**
 * A prefix's place in its VRF's hierarchy, computed as it is read (nothing to keep current on writes): `children`
 * counts the prefixes inside it, `_depth` those around it. Both come for a whole page from one query over the GiST
 * index, and filter as `?children=` and `?depth=` with the number lookups.
 */
export class PrefixTreeField extends ReadOnlyField {
  constructor(private readonly measure: Measure) {
    super();
  }

  override reads(): string[] {
    return ['id'];
  }

  protected schema(): ValueSchema {
    return { type: 'integer' };
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = rows.map((r) => r.id as number);
    const measured = await ctx.memo.get(`ipam.prefix-tree:${ids.join(',')}`, async () => {
      if (!ids.length) return new Map<number, Record<Measure, number>>();
      // Only the prefixes the reader may view count, where the reader says so (GraphQL).
      const countable = await ctx.countable?.(this.model);
      const visible = countable ? ' and c.id in (:visible)' : '';
      const { rows: found } = (await ctx.db.raw(
        `select p.id, (select count(*)::int from ipam_prefix c where ${RELATED.children}${visible}) as children,
           (select count(*)::int from ipam_prefix c where ${RELATED.depth}${visible}) as depth
         from ipam_prefix p where p.id = any(cast(:ids as integer[]))`,
        countable ? { ids: idArray(ids), visible: countable.ids } : { ids: idArray(ids) },
      )) as { rows: (Record<Measure, number> & { id: number })[] };
      return new Map(found.map((r) => [r.id, r]));
    });
    return (row, out) => {
      out[this.name] = measured.get(row.id as number)?.[this.measure] ?? 0;
    };
  }

  override filters(): Record<string, QueryFilter> {
    const related = RELATED[this.measure];
    return {
      [this.measure]: {
        suffixes: ['n', 'lt', 'lte', 'gt', 'gte'],
        build: (suffix, values) => {
          const node = or(values.map(parseWholeNumber).map((n): FilterNode => ({
            op: 'sql',
            condition: (qb, alias) => void qb.whereRaw(`(select count(*) from ipam_prefix c where ${related.replaceAll('p.', '??.')}) ${COMPARE[suffix]} ?`, [alias, alias, n]),
          })));
          return suffix === 'n' ? not(node) : node;
        },
      },
    };
  }
}
