import type { Request } from 'express';
import { notFound } from '../errors.js';
import { applyFilter } from '../filters/compile.js';
import { filterFromQuery } from '../filters/query.js';
import { baseUrl, queryParam } from '../http/request.js';
import type { Model } from '../model/model.js';
import { applyOrdering } from '../model/ordering.js';
import { columnsRead, renderRows, renderedFields } from '../model/render.js';
import { INT_MAX, isStoredId } from '../model/values.js';
import { Memo, ValidationError, type JsonObject, type RenderContext, type RenderMode, type Row } from '../model/types.js';
import { cursorUrl, pageLinks, pageOf } from './pagination.js';
import { selectionOf } from './selection.js';
import type { RestServices } from './services.js';
import { viewableBy } from '../write/gate.js';

/** `?brief` with any non-empty value turns brief mode on, as in NetBox. */
export function renderMode(req: Request): RenderMode {
  const brief = queryParam(req, 'brief');
  return brief !== undefined && brief !== '' ? 'brief' : 'full';
}

function renderContext(req: Request, services: RestServices): RenderContext {
  const db = services.db.knex;
  return { db, registry: services.registry, settings: services.settings, baseUrl: baseUrl(req), memo: new Memo(), viewable: viewableBy(req.access, db) };
}

/** Parses a detail URL's id; anything but a positive integer is a 404. */
export function parseId(text: string | undefined): number {
  if (!text || !/^\d{1,10}$/.test(text) || !isStoredId(Number(text))) throw notFound();
  return Number(text);
}

/**
 * The object `id` if the request may view it: refuses (403) without the permission, answers 404 when the
 * object is missing or outside the permission's constraints.
 */
export async function fetchRow(req: Request, model: Model, id: number, services: RestServices): Promise<Row> {
  await req.access.require(model, 'view');
  const qb = services.db.knex(`${model.table} as t`).select('t.*').where('t.id', id);
  await req.access.restrict(qb, model, 'view');
  const row = (await qb.first()) as Row | undefined;
  if (!row) throw notFound();
  return row;
}

/** GET on a detail endpoint, with `brief`, `fields`, `omit` and `exclude`. */
export async function readObject(req: Request, model: Model, id: number, services: RestServices): Promise<JsonObject> {
  const selection = selectionOf(req, model, services.registry);
  const row = await fetchRow(req, model, id, services);
  return (await renderRows(model, [row], renderContext(req, services), renderMode(req), selection))[0];
}

function cursorOf(req: Request): number | undefined {
  const start = queryParam(req, 'start');
  if (start === undefined) return undefined;
  if (!/^\d+$/.test(start.trim())) throw new ValidationError({ start: ['Enter a non-negative whole number.'] });
  if (Number(start) > INT_MAX) throw new ValidationError({ start: [`Ensure this value is less than or equal to ${INT_MAX}.`] });
  if (req.query.offset !== undefined || req.query.ordering !== undefined) {
    throw new ValidationError({ start: ['Cursor pagination (start) cannot be combined with offset or ordering.'] });
  }
  return Number(start);
}

/**
 * GET on a list endpoint: permissions and filters narrow the rows, then one page in the requested ordering
 * (or, with `start=<id>`, the rows from that id on, whose cost does not grow with depth), rendered in batches.
 */
export async function listObjects(req: Request, model: Model, services: RestServices): Promise<JsonObject> {
  const db = services.db.knex;
  await req.access.require(model, 'view');
  const page = pageOf(req, services.settings);
  const start = cursorOf(req);
  const selection = selectionOf(req, model, services.registry);
  const base = db(`${model.table} as t`);
  await req.access.restrict(base, model, 'view');
  const scope = { db, registry: services.registry };
  applyFilter(base, model, await filterFromQuery(req.query, model, services.filters, scope), scope);

  const mode = renderMode(req);
  // Only the columns the representation shows (a brief page reads a few of many).
  const columns = columnsRead(renderedFields(model, services.registry, mode, selection));
  const qb = base.clone().select(columns ? columns.map((c) => `t.${c}`) : 't.*');
  const render = (rows: Row[]) => renderRows(model, rows, renderContext(req, services), mode, selection);
  if (start !== undefined) {
    qb.where('t.id', '>=', start).orderBy('t.id');
    if (page.limit !== null) qb.limit(page.limit + 1);
    const rows = (await qb) as Row[];
    const more = page.limit !== null && rows.length > page.limit;
    if (more) rows.pop();
    const next = more ? cursorUrl(req, (rows[rows.length - 1].id as number) + 1) : null;
    return { count: null, next, previous: null, results: await render(rows) };
  }
  const ordering = queryParam(req, 'ordering');
  applyOrdering(qb, model, ordering ? ordering.split(',').filter(Boolean) : model.ordering, services.registry);
  if (page.limit !== null) qb.limit(page.limit);
  if (page.offset) qb.offset(page.offset);
  // The count and the page side by side: two connections, one wait.
  const [[{ count }], rows] = (await Promise.all([base.clone().count({ count: '*' }), qb])) as [{ count: string }[], Row[]];
  return { count: Number(count), ...pageLinks(req, page, Number(count)), results: await render(rows) };
}
