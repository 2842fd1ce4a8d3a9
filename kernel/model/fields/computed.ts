import type { QueryFilter } from '../../filters/builders.js';
import { not, or, type FilterNode } from '../../filters/tree.js';
import { parseWholeNumber } from '../../filters/values.js';
import { Batcher } from '../batch.js';
import type { ValueSchema } from '../description.js';
import { ReadOnlyField } from './read-only.js';
import type { FieldRenderer, RenderContext, RenderMode, Row } from '../types.js';

/** A read-only number computed for a whole page of rows in one query. */
export abstract class ComputedField extends ReadOnlyField {
  protected schema(): ValueSchema {
    return { type: 'integer' };
  }

  protected abstract load(ids: number[], ctx: RenderContext): Promise<Map<number, number>>;

  async prepare(rows: Row[], ctx: RenderContext, mode: RenderMode): Promise<FieldRenderer> {
    const nested = this.nestedValue();
    if (mode === 'nested' && nested !== 'compute') {
      return nested === 'omit' ? () => {} : (_row, out) => { out[this.name] = nested; };
    }
    const ids = rows.map((r) => r.id as number);
    const values = ids.length ? await this.load(ids, ctx) : new Map<number, number>();
    return (row, out) => {
      out[this.name] = values.get(row.id as number) ?? 0;
    };
  }

  /** What the field reads inside another object (NetBox leaves annotations out, tree counts read 0). */
  protected nestedValue(): 'compute' | 'omit' | number {
    return 'compute';
  }
}

/** Where the counted objects point at the counted one: a foreign-key column or a join table. */
export interface CountSource {
  table: string;
  /** Column holding the counted-on object's id. */
  column: string;
  /** Column identifying the counted object (counted once even when linked to several nodes of a tree). */
  counted: string;
}

/**
 * The number of objects of another model that refer to each object (`tenant_count` of a tenant group).
 * On tree models the count includes the objects of all descendants, as NetBox's cumulative counts do.
 */
export class CountField extends ComputedField {
  constructor(private readonly source: CountSource, private readonly tree: boolean) {
    super();
  }

  protected override nestedValue(): 'omit' | number {
    return this.tree ? 0 : 'omit';
  }

  /** `?interface_count=48`, `__gte`, `__n`…: objects by how many refer to them (plain counts, as NetBox's counters). */
  override filters(): Record<string, QueryFilter> {
    if (this.tree) return {};
    const { table, column, counted } = this.source;
    const counting = (op: string, value: number): FilterNode => ({
      op: 'sql',
      condition: (qb, alias) => void qb.whereRaw(`(select count(distinct s.${counted}) from ${table} s where s.${column} = ??) ${op} ?`, [`${alias}.id`, value]),
    });
    const ops: Record<string, string> = { '': '=', lt: '<', lte: '<=', gt: '>', gte: '>=' };
    return {
      [this.name]: {
        suffixes: ['n', 'lt', 'lte', 'gt', 'gte'],
        build: (suffix, values) => {
          const numbers = values.map(parseWholeNumber);
          if (suffix === 'n') return not(or(numbers.map((v) => counting('=', v))));
          return or(numbers.map((v) => counting(ops[suffix], v)));
        },
      },
    };
  }

  protected async load(ids: number[], ctx: RenderContext): Promise<Map<number, number>> {
    if (this.tree) return this.loadTree(ids, ctx);
    let batcher = pageCounts.get(ctx);
    if (!batcher) pageCounts.set(ctx, (batcher = new Batcher()));
    return batcher.load(`${this.model.key}:${ids.join(',')}`, this.name, (names) => this.loadAll(names, ids, ctx));
  }

  /** The counts named `names` (fields of this model, as this one) of `ids`, in one statement. */
  private async loadAll(names: string[], ids: number[], ctx: RenderContext): Promise<Map<number, number>[]> {
    const sources = names.map((name) => (ctx.registry.fieldOf(this.model, name) as CountField).source);
    const parts = sources.map(
      ({ table, column, counted }, k) => `select ${k} as k, ${column} as id, count(distinct ${counted})::int as n from ${table} where ${column} = any(?) group by ${column}`,
    );
    const { rows } = (await ctx.db.raw(parts.join(' union all '), sources.map(() => ids))) as { rows: { k: number; id: number; n: number }[] };
    const counts = names.map(() => new Map<number, number>());
    for (const row of rows) counts[row.k].set(row.id, row.n);
    return counts;
  }

  /** Counts that include the objects of every descendant. */
  private async loadTree(ids: number[], ctx: RenderContext): Promise<Map<number, number>> {
    const { table, column, counted } = this.source;
    const owner = this.model.table;
    const { rows } = (await ctx.db.raw(
      `with recursive sub(root, id) as (
         select id, id from ${owner} where id = any(?)
         union select sub.root, t.id from ${owner} t join sub on t.parent_id = sub.id)
       select sub.root as id, count(distinct s.${counted})::int as n from sub join ${table} s on s.${column} = sub.id group by sub.root`,
      [ids],
    )) as { rows: { id: number; n: number }[] };
    return new Map(rows.map((r) => [r.id, r.n]));
  }
}

/** The count fields of one page share a batcher: one statement for all of them. */
const pageCounts = new WeakMap<RenderContext, Batcher>();

/** `_depth` of a tree model: how many ancestors an object has (0 for a root). */
export class DepthField extends ComputedField {
  protected async load(ids: number[], ctx: RenderContext): Promise<Map<number, number>> {
    const table = this.model.table;
    const { rows } = (await ctx.db.raw(
      `with recursive anc(id, parent_id, depth) as (
         select id, parent_id, 0 from ${table} where id = any(?)
         union all select anc.id, t.parent_id, anc.depth + 1 from anc join ${table} t on t.id = anc.parent_id where anc.depth < 1000)
       select id, max(depth)::int as depth from anc group by id`,
      [ids],
    )) as { rows: { id: number; depth: number }[] };
    return new Map(rows.map((r) => [r.id, r.depth]));
  }
}
