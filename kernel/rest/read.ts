import type { Request } from 'express';
import { notFound } from '../base/errors.js';
import { filterFromQuery } from '../filters/query.js';
import { baseUrl, queryParam } from '../http/request.js';
import type { Model } from '../model/model.js';
import type { Field } from '../model/field.js';
import { columnsRead, renderRows, renderedFields } from '../model/render.js';
import { INT_MAX, isStoredId } from '../base/values.js';
import { Memo, ValidationError, type JsonObject, type RenderContext, type RenderMode, type Row } from '../base/types.js';
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
 * object is missing or outside the permission's constraints. `rendered`: the fields the caller will render, those that
 * compute their value in SQL computed in the same statement.
 */
export async function fetchRow(req: Request, model: Model, id: number, services: RestServices, rendered: readonly Field[] = []): Promise<Row> {
  await req.access.require(model, 'view');
  const row = await services.reads.one(model, req.access, id, undefined, rendered);
  if (!row) throw notFound();
  return row;
}

/** GET on a detail endpoint, with `brief`, `fields`, `omit` and `exclude`. */
export async function readObject(req: Request, model: Model, id: number, services: RestServices): Promise<JsonObject> {
  const selection = selectionOf(req, model, services.registry);
  const mode = renderMode(req);
  // The fields it renders that compute their value in SQL do so in the statement reading the row.
  const row = await fetchRow(req, model, id, services, renderedFields(model, services.registry, mode, selection));
  return (await renderRows(model, [row], renderContext(req, services), mode, selection))[0];
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
  await req.access.require(model, 'view');
  const page = pageOf(req, services.settings);
  const start = cursorOf(req);
  const selection = selectionOf(req, model, services.registry);
  const scope = { db: services.db.knex, registry: services.registry };
  const where = await filterFromQuery(req.query, model, services.filters, scope, services.settings.MAX_FILTER_VALUES);
  const mode = renderMode(req);
  // Only the columns the representation shows (a brief page reads a few of many).
  const columns = columnsRead(renderedFields(model, services.registry, mode, selection));
  const render = (rows: Row[]) => renderRows(model, rows, renderContext(req, services), mode, selection);
  if (start !== undefined) {
    const limit = page.limit === null ? null : page.limit + 1;
    const rows = await services.reads.rows(model, req.access, { where, columns, start, limit });
    const more = page.limit !== null && rows.length > page.limit;
    if (more) rows.pop();
    const next = more ? cursorUrl(req, (rows[rows.length - 1].id as number) + 1) : null;
    return { count: null, next, previous: null, results: await render(rows) };
  }
  const terms = queryParam(req, 'ordering');
  const ordering = terms ? terms.split(',').filter(Boolean) : undefined;
  const { rows, count } = await services.reads.page(model, req.access, { where, columns, ordering, limit: page.limit, offset: page.offset });
  return { count, ...pageLinks(req, page, count), results: await render(rows) };
}
