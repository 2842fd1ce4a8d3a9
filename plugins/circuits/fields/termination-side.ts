import {
  ParamError, ReadOnlyField, not, parseWholeNumber,
  type FieldRenderer, type FilterNode, type JsonObject, type QueryFilter, type RenderContext, type Row, type ValueSchema,
} from 'patchbay';

/** How a circuit nests its terminations (NetBox's circuit-side termination serializer). */
const KEYS = ['id', 'url', 'display_url', 'display', 'termination', 'port_speed', 'upstream_speed', 'xconnect_id', 'description'];

/**
 * A circuit's `termination_a` or `termination_z`: its termination of that side, read-only (written through the
 * terminations). Both sides of a page load together, in one query plus the nested terminations'.
 */
export class TerminationSide extends ReadOnlyField {
  constructor(private readonly side: 'A' | 'Z') {
    super({ nullable: true });
  }

  override reads(): string[] {
    return ['id'];
  }

  protected schema(): ValueSchema {
    return { type: 'object', relation: 'circuits.circuittermination', nestedKeys: KEYS };
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = rows.map((r) => r.id as number);
    const sides = await ctx.memo.get(`circuits.sides:${ids.join(',')}`, async () => {
      const found = ids.length ? ((await ctx.db('circuits_circuittermination').select('id', 'circuit_id', 'term_side').whereIn('circuit_id', ids)) as Row[]) : [];
      const nested = await ctx.registry.nestedById(ctx.registry.get('circuits.circuittermination'), found.map((r) => r.id as number), ctx, KEYS);
      return new Map(found.map((r) => [`${r.circuit_id}:${r.term_side}`, nested.get(r.id as number) ?? null]));
    });
    return (row, out) => {
      out[this.name] = (sides.get(`${row.id}:${this.side}`) as JsonObject | undefined) ?? null;
    };
  }

  /** `?termination_a_id=`: circuits whose termination of this side is one of those. */
  override filters(): Record<string, QueryFilter> {
    return {
      [`${this.name}_id`]: {
        suffixes: ['n'],
        build: (suffix, values) => {
          const ids = values.map(parseWholeNumber);
          if (ids.some((id) => id < 1)) throw new ParamError('Enter a whole number.');
          const node: FilterNode = {
            op: 'sql',
            condition: (qb, alias, _m, db) => void qb.whereIn(`${alias}.id`, db('circuits_circuittermination').select('circuit_id').whereIn('id', ids).where('term_side', this.side)),
          };
          return suffix === 'n' ? not(node) : node;
        },
      },
    };
  }
}
