import type { Settings } from '../config/settings.js';
import { cmp, type FilterNode } from '../filters/tree.js';
import type { Field } from '../model/field.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import { Memo, type FieldRenderer, type Json, type JsonObject, type RenderContext, type Row } from '../model/types.js';
import type { Relate, Walk } from '../model/walk.js';
import type { FilterReader } from './filters.js';
import type { Reader, RowQuery } from '../read/reader.js';
import type { Gate } from '../write/gate.js';
import { viewableBy } from '../write/gate.js';

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

  /** Objects of `model` as a batch: the rows of a root list. */
  async list(model: Model, query: RowQuery): Promise<ObjectNode[]> {
    return new Batch(model, await this.reads.rows(model, this.gate, query), this).nodes;
  }

  async one(model: Model, id: number): Promise<ObjectNode | undefined> {
    const row = await this.reads.one(model, this.gate, id);
    return row ? new Batch(model, [row], this).nodes[0] : undefined;
  }
}

/** An object as GraphQL resolves it: its row, and the batch it was read with. */
export interface ObjectNode {
  row: Row;
  batch: Batch;
}

/** What a relation key resolves to for one object. */
export type Related = ObjectNode | ObjectNode[] | null;

/** A list's own arguments, compiled: which rows and which page of them for each object. */
export interface ListQuery {
  where?: FilterNode;
  limit: number | null;
  offset?: number;
  start?: number;
}

/**
 * Objects of one model read together (a root list, or the related objects of a whole batch). Each computed
 * field and each relation is loaded once for all of them, when the first of them asks: a query costs one
 * statement per relation and level, whatever the number of objects.
 */
export class Batch {
  readonly nodes: ObjectNode[];
  readonly render: RenderContext;
  private readonly rows: Row[];
  private readonly renderers = new Map<Field, FieldRenderer | Promise<FieldRenderer>>();
  private readonly loads = new Map<string, Promise<unknown>>();

  constructor(
    readonly model: Model,
    rows: Row[],
    readonly request: GraphRequest,
  ) {
    this.rows = rows;
    this.nodes = rows.map((row) => ({ row, batch: this }));
    const { reads, registry, settings, baseUrl, memo, viewable, countable } = request;
    // One context per batch: fields loading alike (a page's counts) share one statement through it.
    this.render = { db: reads.db, registry, settings, baseUrl, memo, viewable, countable };
  }

  /**
   * The value a field renders under `key` for `row`, as REST renders it: the field prepares once for the whole
   * batch, and only when asked (a field nobody selects is never computed). Synchronous where preparing is.
   */
  value(field: Field, key: string, row: Row): Json | Promise<Json> {
    let renderer = this.renderers.get(field);
    if (!renderer) {
      renderer = field.prepare(this.rows, this.render, 'full');
      this.renderers.set(field, renderer);
      if (renderer instanceof Promise) void renderer.then((r) => this.renderers.set(field, r), () => this.renderers.delete(field));
    }
    const read = (render: FieldRenderer): Json => {
      const out: JsonObject = {};
      render(row, out);
      return out[key] ?? null;
    };
    return renderer instanceof Promise ? renderer.then(read) : read(renderer);
  }

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let loaded = this.loads.get(key) as Promise<T> | undefined;
    if (!loaded) {
      loaded = load();
      this.loads.set(key, loaded);
    }
    return loaded;
  }

  /**
   * The objects a key names by reference (a foreign key, a generic relation, a cable's ends), for one row: the
   * references of every row of the batch are read together, then one query per target model, with the reader's
   * permissions (what they may not view is left out).
   */
  async referenced(key: string, walk: Walk, row: Row): Promise<Related> {
    const resolved = await this.once(`refs:${key}`, async () => {
      const refsOf = await walk.refs!(this.rows, this.render);
      const refs = new Map(this.rows.map((r) => [r.id as number, refsOf(r)]));
      const wanted = new Map<string, Set<number>>();
      for (const ref of [...refs.values()].flat()) {
        if (ref && walk.targets.includes(ref.model)) wanted.set(ref.model, (wanted.get(ref.model) ?? new Set()).add(ref.id));
      }
      const found = new Map<string, ObjectNode>();
      await Promise.all(
        [...wanted].map(async ([key, ids]) => {
          const model = this.request.registry.get(key);
          const rows = await this.request.reads.rows(model, this.request.gate, { where: cmp(['id'], 'in', [...ids]), ordering: [] });
          for (const node of new Batch(model, rows, this.request).nodes) found.set(`${key}:${node.row.id}`, node);
        }),
      );
      const nodeOf = (ref: { model: string; id: number } | null) => (ref ? found.get(`${ref.model}:${ref.id}`) ?? null : null);
      return (r: Row): Related => {
        const ref = refs.get(r.id as number) ?? null;
        return Array.isArray(ref) ? ref.map(nodeOf).filter((n): n is ObjectNode => n !== null) : nodeOf(ref);
      };
    });
    return resolved(row);
  }

  /**
   * The objects of `target` related to `row` through SQL (a reverse foreign key, a many-to-many), with the list's
   * own filters and page applied to each object's list: one statement for the whole batch, each object's page
   * read by a lateral subquery through the reader's permissions.
   */
  async listed(name: string, target: Model, relate: Relate, query: ListQuery, row: Row, signature: string): Promise<ObjectNode[]> {
    const byParent = await this.once(`list:${name}:${signature}`, async () => {
      const parents = this.rows.map((r) => r.id as number);
      const lists = new Map<number, ObjectNode[]>();
      if (!parents.length) return lists;
      const { reads, gate } = this.request;
      const { qb } = await reads.visible(target, gate, query.where);
      relate(qb, 't', 'p.id');
      reads.arrange(qb, target, query);
      const { rows } = (await reads.db.raw('select p.id as "__parent", x.* from unnest(?::int[]) as p(id) cross join lateral ? as x', [parents, qb])) as {
        rows: Row[];
      };
      // One node per object, also when it belongs to several lists (a VLAN tagged on several interfaces).
      const distinct = new Map<number, Row>();
      for (const r of rows) if (!distinct.has(r.id as number)) distinct.set(r.id as number, r);
      const nodes = new Map(new Batch(target, [...distinct.values()], this.request).nodes.map((n) => [n.row.id as number, n]));
      for (const r of rows) {
        const list = lists.get(r.__parent as number);
        const node = nodes.get(r.id as number)!;
        if (list) list.push(node);
        else lists.set(r.__parent as number, [node]);
      }
      return lists;
    });
    return byParent.get(row.id as number) ?? [];
  }
}
