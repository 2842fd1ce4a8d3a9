import type { Knex } from '@mikro-orm/knex';
import type { Request } from 'express';
import { notFound } from '../base/errors.js';
import type { Settings } from '../config/settings.js';
import type { FilterSets } from '../model/filter-sets.js';
import { filterFromQuery, type QueryParams } from '../filters/query.js';
import { checkTexts } from '../base/text.js';
import { and, type FilterNode } from '../filters/tree.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { Reader, RowQuery } from '../read/reader.js';
import { Batcher } from '../model/batch.js';
import { columnsRead, renderRows, type FieldSelection } from '../model/render.js';
import { Memo, type JsonObject, type RenderMode, type Row } from '../base/types.js';
import type { Actor } from '../write/context.js';
import { viewableBy, type Action, type Gate } from '../write/gate.js';
import type { WriteSession } from '../write/session.js';
import type { WriteRunner } from '../write/writer.js';
import { storedRow } from '../model/stored.js';

/** Whole rows of one model, read by the caller. */
export interface Alongside {
  model: Model;
  rows: Row[];
}

/** Which objects `list` returns: the API's query-string filters and/or a filter tree, ordered and paged. */
export interface ListQuery {
  /** Query-string filters exactly as a list endpoint takes them: `{ status: 'active', tenant_id: ['1', '2'] }`. */
  params?: QueryParams;
  where?: FilterNode;
  /** Only these objects. */
  ids?: number[];
  /** Default: the model's ordering. */
  ordering?: string[];
  limit?: number;
  offset?: number;
  /** The form the rows are read for: a brief or nested form reads only the columns it renders. Default: whole rows. */
  renderedAs?: RenderMode;
  /** Only these columns (and `id`), instead of whole rows or `renderedAs`'s. */
  columns?: string[];
}

/**
 * How a plugin's routes and jobs read and write: as a user (their permissions applied) or as the system,
 * with the API's filters, rendering, validation, change log and events.
 */
export interface DataAccess {
  readonly userId: number | null;
  can(model: Model, action: Action): Promise<boolean>;
  /** Refuses (403) unless `action` on `model` is permitted. */
  require(model: Model, action: Action): Promise<void>;
  /** Objects this reader may view (403 without the view permission). */
  list(model: Model, query?: ListQuery): Promise<Row[]>;
  /** What `list` returns for each read: those whose columns are known in one statement, whatever their model. */
  listEach(reads: { model: Model; query?: ListQuery }[]): Promise<Row[][]>;
  /** How many objects `list` would return without its page. */
  count(model: Model, query?: Pick<ListQuery, 'params' | 'where'>): Promise<number>;
  /** One object this reader may view, or undefined. */
  get(model: Model, id: number): Promise<Row | undefined>;
  /**
   * Rows as the API renders them (`full`, `brief`), URLs from this reader's request or host-less. `alongside`: whole
   * rows of other objects the caller has read for the same answer; objects nested by id render from them.
   */
  render(model: Model, rows: Row[], options?: { mode?: RenderMode; selection?: FieldSelection; alongside?: Alongside[] }): Promise<JsonObject[]>;
  /** One transaction: every write is validated, permission-checked, change-logged and evented; all or nothing. */
  write<T>(work: (session: WriteSession) => Promise<T>): Promise<T>;
}

export interface DataServices {
  knex: Knex;
  registry: ModelRegistry;
  settings: Settings;
  filters: FilterSets;
  reads: Reader;
  writes: WriteRunner;
}

/** A reader and writer: its permissions (`gate`), who the change log names, and where URLs point. */
export function dataAccess(services: DataServices, who: { gate: Gate; userId: number | null; actor: () => Actor; baseUrl: string }): DataAccess {
  const { knex, registry, settings, filters, reads, writes } = services;
  const { gate, baseUrl } = who;
  const loads = new Batcher();
  /** The query-string filters and the filter tree of a query, as one tree. */
  const selecting = async (model: Model, query: Pick<ListQuery, 'params' | 'where'>): Promise<FilterNode> => {
    // The API's pipeline refuses such text in a query string; params from a template or a plugin arrive here first.
    if (query.params) checkTexts(query.params);
    const params = query.params ? await filterFromQuery(query.params, model, filters, { db: knex, registry }, settings.MAX_FILTER_VALUES) : and([]);
    return and([params, query.where ?? and([])]);
  };
  /** A list's query as the reader reads it, once the view permission is checked. */
  const rowQuery = async (model: Model, query: ListQuery): Promise<RowQuery> => {
    await gate.require(model, 'view');
    const columns = query.columns ? [...new Set(['id', ...query.columns])] : query.renderedAs && columnsRead(registry.outputFields(model, query.renderedAs));
    return { where: await selecting(model, query), ids: query.ids, ordering: query.ordering, limit: query.limit, offset: query.offset, columns };
  };
  return {
    userId: who.userId,
    can: (model, action) => gate.can(model, action),
    require: (model, action) => gate.require(model, action),
    async list(model, query = {}) {
      return reads.rows(model, gate, await rowQuery(model, query));
    },
    async listEach(each) {
      return reads.rowsOfEach(await Promise.all(each.map(async ({ model, query = {} }) => ({ model, gate, query: await rowQuery(model, query) }))));
    },
    async count(model, query = {}) {
      await gate.require(model, 'view');
      return reads.count(model, gate, await selecting(model, query));
    },
    async get(model, id) {
      await gate.require(model, 'view');
      return reads.one(model, gate, id);
    },
    render(model, rows, options = {}) {
      const memo = new Memo();
      // Read for this answer, they are what a read would return: as rows a write stored are to its answer.
      for (const { model: other, rows: read } of options.alongside ?? []) for (const row of read) memo.remember(storedRow(other.key, row.id as number), row);
      return renderRows(model, rows, { db: knex, registry, settings, baseUrl, memo, loads, viewable: viewableBy(gate, knex) }, options.mode ?? 'full', options.selection);
    },
    write: (work) => writes.run({ actor: who.actor(), gate, baseUrl }, work),
  };
}

/** The id a detail sub-endpoint's `:id` gives, if it is one. */
export function detailId(req: Request): number | undefined {
  return /^\d{1,9}$/.test(String(req.params.id)) ? Number(req.params.id) : undefined;
}

/** The object a detail sub-endpoint's `:id` names (`/devices/<id>/render-config/`), if `access` may view it; else a 404. */
export async function detailObject(req: Request, access: DataAccess, model: Model): Promise<Row> {
  const id = detailId(req);
  const row = id === undefined ? undefined : await access.get(model, id);
  if (!row) throw notFound();
  return row;
}
