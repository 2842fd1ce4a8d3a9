import type { Knex } from '@mikro-orm/knex';
import type { Settings } from '../config/settings.js';
import { cmp, type FilterNode } from '../filters/tree.js';
import type { Field } from '../model/field.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import { Memo, type FieldRenderer, type Json, type JsonObject, type RenderContext, type Row } from '../base/types.js';
import { orderingWithin, type Relate, type Walk } from '../model/walk.js';
import type { FilterReader } from './filters.js';
import type { Reader, RowQuery } from '../read/reader.js';
import type { Gate } from '../write/gate.js';
import { viewableBy } from '../write/gate.js';
import { idArray } from '../base/typed-arrays.js';
import { appendTo } from '../base/collections.js';
import { inlineColumn, type InlineList } from './inline.js';

/** One GraphQL request's reader: who reads (their permissions), through the kernel's one read path. */
export class GraphRequest implements FilterReader {
  readonly memo = new Memo();
  readonly viewable: RenderContext['viewable'];
  /** What a count may count: only what the reader may view, at every level (REST's counts, as NetBox's, count all). */
  readonly countable: RenderContext['countable'];

  constructor(
    readonly reads: Reader,
    readonly gate: Gate,
    readonly registry: ModelRegistry,
    readonly settings: Settings,
    readonly baseUrl: string,
  ) {
    this.viewable = viewableBy(gate, reads.db);
    this.countable = async (model) => ((await gate.unrestricted(model, 'view')) ? null : { ids: (await reads.visible(model, gate, undefined, ['id'])).qb });
  }

  /** The objects of `model` the reader may view, as a condition (none when they may view all). */
  async visible(model: Model): Promise<FilterNode | undefined> {
    const countable = await this.countable!(model);
    if (!countable) return undefined;
    return { op: 'sql', condition: (qb, alias) => void qb.whereIn(`${alias}.id`, countable.ids.clone()) };
  }

  /**
   * Objects of `model` as a batch: the rows of a root list, and the lists of theirs `inlines` names read in the same
   * statement (the root's page a subquery, whose order a plain selection from it keeps), loaded for the batch.
   */
  async list(model: Model, query: RowQuery, inlines: InlineList[] = []): Promise<Batch> {
    if (!inlines.length) return new Batch(model, await this.reads.rows(model, this.gate, query), this);
    const { qb } = await this.reads.visible(model, this.gate, query.where, query.columns, query.ids);
    this.reads.arrange(qb, model, query);
    const columns = await Promise.all(inlines.map((inline, k) => inlineColumn(this.reads, this.gate, inline, `__inline_${k}`)));
    const rows = (await this.reads.db.select('p.*', ...columns.map((c) => c.column)).from(qb.as('p'))) as Row[];
    const lists = inlines.map((_, k) => rows.map((row) => {
      const json = row[`__inline_${k}`];
      // Cleared, not deleted: a deleted key would turn every row into a slower kind of object.
      row[`__inline_${k}`] = undefined;
      return columns[k].rows(json);
    }));
    const batch = new Batch(model, rows, this);
    inlines.forEach((inline, k) => {
      const of = new Map<number, ObjectNode[]>();
      const children = new Batch(inline.target, lists[k].flat(), this);
      let next = 0;
      rows.forEach((row, i) => {
        of.set(row.id as number, children.nodes.slice(next, (next += lists[k][i].length)));
      });
      void batch.load(inline.signature, async () => ({ batches: [children], of: (node) => of.get(node.row.id as number) ?? [] }));
    });
    return batch;
  }

  /** One object as a batch of one, or none. */
  async one(model: Model, id: number, columns?: string[]): Promise<Batch> {
    const row = await this.reads.one(model, this.gate, id, columns);
    return new Batch(model, row ? [row] : [], this);
  }
}

/** An object as GraphQL resolves it: its row, the batch it was read with, and its place in the batch. */
export interface ObjectNode {
  row: Row;
  batch: Batch;
  index: number;
}

/** The columns a query's selection reads of a model (undefined: every column). */
export type Columns = (model: Model) => string[] | undefined;

/** What a relation key resolves to for one object. */
export type Related = ObjectNode | ObjectNode[] | null;

/** A list's own arguments, compiled: which rows and which page of them for each object. */
export interface ListQuery {
  where?: FilterNode;
  limit: number | null;
  offset?: number;
  start?: number;
}

/** A relation loaded for a whole batch: what it holds for each object, and the batches of the objects it reached. */
export interface Loaded {
  of(node: ObjectNode): Related;
  batches: Batch[];
}

/**
 * Objects of one model read together (a root list, or the related objects of a whole batch). Each computed
 * field and each relation is loaded once for all of them, when the first of them asks or ahead of time (the
 * prefetch that walks a query before GraphQL resolves it): a query costs one statement per relation and level,
 * whatever the number of objects, and what is loaded resolves synchronously.
 */
export class Batch {
  readonly nodes: ObjectNode[];
  readonly render: RenderContext;
  private readonly rows: Row[];
  /** Each key's values for the whole batch, in the order of its rows, once worked out. */
  private readonly values = new Map<string, unknown[] | Promise<unknown[]>>();
  private readonly loads = new Map<unknown, Promise<Loaded>>();
  private readonly settled = new Map<unknown, Loaded>();

  constructor(
    readonly model: Model,
    rows: Row[],
    readonly request: GraphRequest,
  ) {
    this.rows = rows;
    this.nodes = rows.map((row, index) => ({ row, batch: this, index }));
    const { reads, registry, settings, baseUrl, memo, viewable, countable } = request;
    // One context per batch: fields loading alike (a page's counts) share one statement through it.
    this.render = { db: reads.db, registry, settings, baseUrl, memo, viewable, countable };
  }

  /**
   * Every object's value of a field's key, as REST renders it and then made GraphQL's by `convert`: the field
   * prepares once for the whole batch, and only when asked (a field nobody selects is never computed).
   */
  private valuesOf(field: Field, key: string, convert: (value: Json) => unknown): unknown[] | Promise<unknown[]> {
    const id = `${field.name}:${key}`;
    let values = this.values.get(id);
    if (!values) {
      const all = (render: FieldRenderer) => {
        // One object for every row: nothing allocated per row but the values.
        const out: JsonObject = {};
        return this.rows.map((row) => {
          render(row, out);
          return convert(out[key] ?? null);
        });
      };
      const renderer = field.prepare(this.rows, this.render, 'full');
      values = renderer instanceof Promise ? renderer.then(all) : all(renderer);
      this.values.set(id, values);
      if (values instanceof Promise) void values.then((v) => this.values.set(id, v), () => this.values.delete(id));
    }
    return values;
  }

  /** An object's value of a field's key: synchronous once the batch's values are worked out. */
  value(field: Field, key: string, node: ObjectNode, convert: (value: Json) => unknown): unknown {
    const values = this.valuesOf(field, key, convert);
    return values instanceof Promise ? values.then((v) => v[node.index]) : values[node.index];
  }

  /** Works out a field's values ahead of time; a promise only when preparing the field queries. */
  prepare(field: Field, key: string, convert: (value: Json) => unknown): Promise<unknown> | undefined {
    const values = this.valuesOf(field, key, convert);
    return values instanceof Promise ? values : undefined;
  }

  /** Loads a relation for the whole batch, once per field of the query (`signature`). */
  load(signature: unknown, load: () => Promise<Loaded>): Promise<Loaded> {
    let loaded = this.loads.get(signature);
    if (!loaded) {
      loaded = load();
      this.loads.set(signature, loaded);
      loaded.then((l) => this.settled.set(signature, l), () => {});
    }
    return loaded;
  }

  /** What a relation holds for one object: synchronous once loaded for the batch. */
  related(signature: unknown, node: ObjectNode, load: () => Promise<Loaded>): Related | Promise<Related> {
    const settled = this.settled.get(signature);
    return settled ? settled.of(node) : this.load(signature, load).then((l) => l.of(node));
  }

  /**
   * The objects a key names by reference (a foreign key, a generic relation, a cable's ends): the references of
   * every object are read together, then one query per target model, with the reader's permissions (what they
   * may not view is left out).
   */
  async referenced(walk: Walk, columns: Columns): Promise<Loaded> {
    const refsOf = await walk.refs!(this.rows, this.render);
    const refs = this.rows.map(refsOf);
    const wanted = new Map<string, Set<number>>();
    for (const ref of refs.flat()) {
      if (ref && walk.targets.includes(ref.model)) wanted.set(ref.model, (wanted.get(ref.model) ?? new Set()).add(ref.id));
    }
    const found = new Map<string, ObjectNode>();
    const batches = await Promise.all(
      [...wanted].map(async ([key, ids]) => {
        const model = this.request.registry.get(key);
        const rows = await this.request.reads.rows(model, this.request.gate, { where: cmp(['id'], 'in', [...ids]), ordering: [], columns: columns(model) });
        const batch = new Batch(model, rows, this.request);
        for (const node of batch.nodes) found.set(`${key}:${node.row.id}`, node);
        return batch;
      }),
    );
    const nodeOf = (ref: { model: string; id: number } | null) => (ref ? found.get(`${ref.model}:${ref.id}`) ?? null : null);
    return {
      batches,
      of: (node) => {
        const ref = refs[node.index];
        return Array.isArray(ref) ? ref.map(nodeOf).filter((n): n is ObjectNode => n !== null) : nodeOf(ref);
      },
    };
  }

  /**
   * The objects of `target` related to each object through SQL (a reverse foreign key, a many-to-many), with the
   * list's own filters and page applied to each object's list: one statement for the whole batch, each object's
   * page read by a lateral subquery through the reader's permissions. When the related rows hold the object's id
   * in a column, the lateral subqueries run only for the objects one index scan finds rows of (most of a page of
   * interfaces have no address), and the rows are not ordered by that column (the same within one list).
   */
  async listed(target: Model, relate: Relate, query: ListQuery, columns: Columns): Promise<Loaded> {
    const parents = this.rows.map((r) => r.id as number);
    const lists = new Map<number, ObjectNode[]>();
    const { reads, gate } = this.request;
    const { via } = relate;
    let rows: Row[] = [];
    if (parents.length) {
      const { qb } = await reads.visible(target, gate, query.where, columns(target));
      relate(qb, 't', 'p.id');
      reads.arrange(qb, target, { ...query, ordering: orderingWithin(target, relate) });
      let from: Knex.Raw;
      if (via) {
        const having = reads.db({ t: target.table }).distinct({ id: `t.${via.column}` });
        via.among(having, 't', parents);
        from = reads.db.raw('? as p', [having]);
      } else {
        from = reads.db.raw('unnest(?::int[]) as p(id)', [idArray(parents)]);
      }
      ({ rows } = (await reads.db.raw('select p.id as "__parent", x.* from ? cross join lateral ? as x', [from, qb])) as { rows: Row[] });
    }
    // Rows holding their object's id in a column belong to one list each; other lists may share an object (a VLAN
    // tagged on several interfaces), which is one node in all of them.
    let batch: Batch;
    if (via) {
      batch = new Batch(target, rows, this.request);
      for (const node of batch.nodes) appendTo(lists, node.row.__parent as number, node);
    } else {
      const distinct = new Map<number, Row>();
      for (const r of rows) if (!distinct.has(r.id as number)) distinct.set(r.id as number, r);
      batch = new Batch(target, [...distinct.values()], this.request);
      const nodes = new Map(batch.nodes.map((n) => [n.row.id as number, n]));
      for (const r of rows) appendTo(lists, r.__parent as number, nodes.get(r.id as number)!);
    }
    return { batches: [batch], of: (node) => lists.get(node.row.id as number) ?? [] };
  }
}
