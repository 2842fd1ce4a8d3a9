import type { Knex } from '@mikro-orm/knex';
import { addFilter } from '../filters/compile.js';
import { matchesAll, type FilterNode } from '../filters/tree.js';
import type { Model } from '../model/model.js';
import { selectComputed, type Field } from '../model/field.js';
import { applyOrdering } from '../model/ordering.js';
import type { ModelRegistry } from '../model/registry.js';
import type { Row } from '../base/types.js';
import { isStoredId } from '../base/values.js';
import type { Gate } from '../write/gate.js';
import { whereIdIn } from '../base/typed-arrays.js';
import type { RowCounts } from '../db/row-counts.js';
import { quoteIdentifier } from '../base/identifiers.js';

/** The column of `page`'s statement that carries the count (no model has a field of that name). */
const TOTAL = '_page_total';

/** Which rows a read wants: a filter tree, an ordering, the columns and a page. */
export interface RowQuery {
  where?: FilterNode;
  /** Only these objects (by id, without compiling a filter). */
  ids?: number[];
  /** Field names or related paths, `-` for descending; default the model's ordering. */
  ordering?: string[];
  /** Columns to select; default every column. */
  columns?: string[];
  /** null or unset: every row. */
  limit?: number | null;
  offset?: number;
  /** Cursor pagination: the rows from this id on, by id (no other ordering, no offset). */
  start?: number;
}

/** One read of `rowsOfEach`: a model, who reads it and which rows. */
export interface PartRead {
  model: Model;
  gate: Gate;
  query: RowQuery;
}

/** The column of `rowsOfEach`'s statement that tells which read a row belongs to. */
const PART = '_read_part';

/** A column as `rowsOfEach` selects it: its name and its PostgreSQL type. */
interface TypedColumn {
  name: string;
  type: string;
}

/** Each model's columns' PostgreSQL types, by column name (fixed once every plugin has registered its fields). */
const columnTypes = new WeakMap<Model, Map<string, string>>();

/** `columns` of `model` with their types; undefined if one is not a field's column (its type is unknown). */
function typedColumns(model: Model, columns: string[]): TypedColumn[] | undefined {
  let types = columnTypes.get(model);
  if (!types) columnTypes.set(model, (types = new Map(model.fields.flatMap((f) => f.columns()).map((c) => [c.name, c.type]))));
  const typed = columns.map((name) => ({ name, type: types.get(name) }));
  return typed.every((c): c is TypedColumn => c.type !== undefined) ? typed : undefined;
}

/** A type a NULL can be cast to: a serial column holds integers. */
const castable = (type: string): string => ({ serial: 'integer', bigserial: 'bigint', smallserial: 'smallint' })[type] ?? type;

/** A query builder in a box: an async function returning a builder would run it (builders are thenables). */
export interface Boxed {
  qb: Knex.QueryBuilder;
}

/**
 * The one read path: every reader (REST lists and details, plugins' `ctx.as(req).list`, GraphQL at every level of
 * nesting) gets its rows here, so that permissions, filters, ordering and pages become SQL in one place.
 * Permission checks that refuse (403) are the caller's: a reader without the view permission gets no rows.
 */
export class Reader {
  constructor(
    readonly db: Knex,
    private readonly registry: ModelRegistry,
    private readonly rowCounts: RowCounts,
  ) {}

  /** The rows of `model` (aliased `t`) that `gate` may view and `where` matches: to select, count or nest further. */
  async visible(model: Model, gate: Gate, where?: FilterNode, columns?: string[], ids?: number[]): Promise<Boxed> {
    const qb = this.db(`${model.table} as t`).select(columns ? columns.map((c) => `t.${c}`) : 't.*');
    await gate.restrict(qb, model, 'view');
    if (ids) whereIdIn(qb, 't.id', ids);
    if (where) addFilter(qb, model, where, { db: this.db, registry: this.registry });
    return { qb };
  }

  /** Orders and pages a query from `visible`. */
  arrange(qb: Knex.QueryBuilder, model: Model, query: RowQuery): void {
    if (query.start !== undefined) qb.where('t.id', '>=', query.start).orderBy('t.id');
    else applyOrdering(qb, model, query.ordering ?? model.ordering, this.registry);
    // In the text (a whole number), not a parameter: PostgreSQL then plans a prepared page once, not at every run.
    if (query.limit !== undefined && query.limit !== null) qb.limit(query.limit, { skipBinding: true });
    if (query.offset) qb.offset(query.offset);
  }

  /** The matching rows, ordered and paged. */
  async rows(model: Model, gate: Gate, query: RowQuery = {}): Promise<Row[]> {
    const { qb } = await this.visible(model, gate, query.where, query.columns, query.ids);
    this.arrange(qb, model, query);
    return (await qb) as Row[];
  }

  /**
   * The rows of several reads (a trace's ports of three models, a template's objects and lists), each as `rows` reads
   * them: in one statement for every read whose columns are known (a UNION ALL of them, each row marked with its
   * read), one statement each for the others (whole rows). Every statement wakes a PostgreSQL backend, which takes a
   * core from the server meanwhile, and costs the server more than the rows it brings.
   */
  async rowsOfEach(reads: PartRead[]): Promise<Row[][]> {
    const out: Row[][] = reads.map(() => []);
    const typed = reads.map(({ model, query }) => query.columns && typedColumns(model, query.columns));
    const together = reads.flatMap((_, k) => (typed[k] ? [k] : []));
    const alone = together.length > 1 ? reads.flatMap((_, k) => (typed[k] ? [] : [k])) : reads.map((_, k) => k);
    await Promise.all([
      ...alone.map(async (k) => {
        out[k] = await this.rows(reads[k].model, reads[k].gate, reads[k].query);
      }),
      ...(together.length > 1 ? [this.together(reads, together.map((k) => ({ k, columns: typed[k]! })), out)] : []),
    ]);
    return out;
  }

  /**
   * Reads `parts` in one statement into `out`. The columns of reads alike (the same names and types) share a range of
   * the statement's columns; each read fills its own range and casts NULL into the others, so every column has one
   * type in every branch of the UNION.
   */
  private async together(reads: PartRead[], parts: { k: number; columns: TypedColumn[] }[], out: Row[][]): Promise<void> {
    const ranges = new Map<string, { from: number; columns: TypedColumn[] }>();
    const slots: string[] = [];
    const rangeOf = parts.map(({ columns }) => {
      const signature = columns.map((c) => `${c.name} ${c.type}`).join(',');
      let range = ranges.get(signature);
      if (!range) {
        ranges.set(signature, (range = { from: slots.length, columns }));
        for (const c of columns) slots.push(castable(c.type));
      }
      return range;
    });
    const branches = await Promise.all(parts.map(async ({ k }, n): Promise<Boxed> => {
      const { model, gate, query } = reads[k];
      const { qb } = await this.visible(model, gate, query.where, query.columns, query.ids);
      this.arrange(qb, model, query);
      const { from, columns } = rangeOf[n];
      const selected = slots.map((type, s) => `${s >= from && s < from + columns.length ? `q.${quoteIdentifier(columns[s - from].name)}` : `null::${type}`} as s${s}`);
      // Each read a subquery of its own: a plain selection from it keeps its order.
      return { qb: this.db.select(this.db.raw(`${k}::int as ${PART}, ${selected.join(', ')}`)).from(qb.as('q')) };
    }));
    const [first, ...rest] = branches.map((branch) => branch.qb);
    const byPart = new Map(parts.map(({ k }, n) => [k, rangeOf[n]]));
    for (const row of (await first.unionAll(rest, true)) as Row[]) {
      const k = row[PART] as number;
      const { from, columns } = byPart.get(k)!;
      const read: Row = {};
      for (let i = 0; i < columns.length; i++) read[columns[i].name] = row[`s${from + i}`];
      out[k].push(read);
    }
  }

  /**
   * A page of rows and how many rows match in all, in one statement: the count is an uncorrelated subquery, which
   * PostgreSQL runs once, selected beside the page's rows (the page a subquery of its own, whose order a plain
   * selection from it keeps), not beside every row the page is sorted from. A round trip fewer matters most when the
   * servers share the cores with PostgreSQL (WORKERS above 1). An empty page (past the end) counts on its own.
   */
  async page(model: Model, gate: Gate, query: RowQuery): Promise<{ rows: Row[]; count: number }> {
    const { qb } = await this.visible(model, gate, query.where, query.columns);
    const counted = (await this.counter(model, gate, query.where))?.qb ?? qb.clone().clearSelect().count({ count: '*' });
    this.arrange(qb, model, query);
    const rows = (await this.db.select('p.*', counted.clone().as(TOTAL)).from(qb.as('p'))) as Row[];
    if (!rows.length) {
      const [{ count }] = (await counted) as { count: string }[];
      return { rows, count: Number(count) };
    }
    const count = Number(rows[0][TOTAL]);
    // Cleared, not deleted: deleting a property makes every row a slower dictionary object for the rendering to read.
    for (const row of rows) row[TOTAL] = undefined;
    return { rows, count };
  }

  /** How many rows `gate` may view among those `where` selects. */
  async count(model: Model, gate: Gate, where?: FilterNode): Promise<number> {
    const counted = (await this.counter(model, gate, where))?.qb ?? (await this.visible(model, gate, where)).qb.clearSelect().count({ count: '*' });
    const [{ count }] = (await counted) as { count: string }[];
    return Number(count);
  }

  /** Every row of the table, when nothing narrows the read: its count from the row counters, in constant time. */
  private async counter(model: Model, gate: Gate, where?: FilterNode): Promise<Boxed | undefined> {
    if ((where && !matchesAll(where)) || !(await gate.unrestricted(model, 'view'))) return undefined;
    const qb = this.rowCounts.of(this.db, model.table);
    return qb && { qb };
  }

  /**
   * One row by id, if `gate` may view it. A whole row brings what `computed` (default: every field of its full form)
   * compute in SQL, a device's config context: no statements of their own when the row is rendered.
   */
  async one(model: Model, gate: Gate, id: number, columns?: string[], computed: readonly Field[] = this.registry.outputFields(model, 'full')): Promise<Row | undefined> {
    if (!isStoredId(id)) return undefined;
    const { qb } = await this.visible(model, gate, undefined, columns);
    if (!columns) selectComputed(qb, this.db, computed, [id]);
    return (await qb.where('t.id', id).first()) as Row | undefined;
  }
}
