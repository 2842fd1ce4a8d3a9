import type { Request } from 'express';
import { forbidden, type Action } from '../auth/access.js';
import type { ModelAction, ModelEvent } from '../events/bus.js';
import { BulkValidationError } from '../http/errors.js';
import type { Model } from '../model/model.js';
import { renderRows } from '../model/render.js';
import { deleteObjects, insertObject, parseBody, updateObject, type WriteMode } from '../model/store.js';
import { ValidationError, type Db, type Json, type JsonObject, type RenderContext, type Row } from '../model/types.js';
import { fetchRow, renderContext, renderOne } from './read.js';
import type { RestServices } from './services.js';

/** One write request: its transaction and the events it will publish once committed. */
interface WriteScope {
  trx: Db;
  req: Request;
  services: RestServices;
  events: ModelEvent[];
}

/** Runs `work` in one transaction; events go out only after the commit. */
async function inTransaction<T>(req: Request, services: RestServices, work: (scope: WriteScope) => Promise<T>): Promise<T> {
  const events: ModelEvent[] = [];
  const result = await services.db.knex.transaction((trx) => work({ trx, req, services, events }));
  await services.bus.publish(events);
  return result;
}

/** Event data is rendered without a request: host-less URLs. */
function eventContext(scope: WriteScope): RenderContext {
  return { db: scope.trx, registry: scope.services.registry, settings: scope.services.settings, baseUrl: '' };
}

async function record(scope: WriteScope, model: Model, action: ModelAction, row: Row, data: JsonObject | null): Promise<void> {
  if (!scope.services.bus.hasListeners) return;
  const ctx = eventContext(scope);
  scope.events.push({
    action,
    model: model.key,
    id: row.id as number,
    data: data ?? (await renderOne(model, row, ctx)),
    requestId: scope.req.requestId,
  });
}

function writeContext(scope: WriteScope, instance?: Row) {
  return { db: scope.trx, registry: scope.services.registry, instance };
}

/** After a write, the object must still satisfy the permission's constraints (or the model's own rule), else 403. */
async function authorizeWrite(scope: WriteScope, model: Model, action: 'add' | 'change', row: Row, previous?: Row): Promise<void> {
  const { access } = scope.req;
  const verdict = model.decl.authorize
    ? await model.decl.authorize(row, {
        action,
        previous,
        userId: access.userId,
        isSuperuser: access.isSuperuser,
        can: (key, a) => access.can(scope.services.registry.get(key), a),
      })
    : 'check';
  if (verdict === 'check' && !(await access.permits(scope.trx, model, action, row.id as number))) throw forbidden();
}

async function createOne(scope: WriteScope, model: Model, body: unknown): Promise<Row> {
  const values = await parseBody(model, body, writeContext(scope), 'create');
  const row = await insertObject(model, values, scope.trx);
  await authorizeWrite(scope, model, 'add', row);
  await record(scope, model, 'created', row, null);
  return row;
}

async function updateOne(scope: WriteScope, model: Model, instance: Row, body: unknown, mode: WriteMode): Promise<Row> {
  const values = await parseBody(model, body, writeContext(scope, instance), mode);
  const row = await updateObject(model, instance.id as number, values, scope.trx);
  await authorizeWrite(scope, model, 'change', row, instance);
  await record(scope, model, 'updated', row, null);
  return row;
}

async function deleteMany(scope: WriteScope, model: Model, rows: Row[]): Promise<void> {
  const before = scope.services.bus.hasListeners
    ? await renderRows(model, rows, eventContext(scope), 'full')
    : [];
  await deleteObjects(model, rows.map((r) => r.id as number), eventContext(scope));
  for (const [i, row] of rows.entries()) await record(scope, model, 'deleted', row, before[i] ?? {});
}

/**
 * Applies `handle` to every item of a bulk body; validation errors are collected into a list aligned
 * with the input and abort the whole request.
 */
async function eachItem<T>(items: unknown[], handle: (item: unknown) => Promise<T | undefined>): Promise<T[]> {
  const results: T[] = [];
  const errors: Json[] = [];
  for (const item of items) {
    try {
      const result = await handle(item);
      if (result !== undefined) results.push(result);
      errors.push({});
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      errors.push(err.errors);
    }
  }
  if (errors.some((e) => Object.keys(e as object).length)) throw new BulkValidationError(errors);
  return results;
}

function expectList(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const type = body === null || body === undefined ? 'NoneType' : typeof body === 'object' ? 'dict' : typeof body === 'string' ? 'str' : 'int';
  throw new ValidationError({ non_field_errors: [`Expected a list of items but got type "${type}".`] });
}

/** The `id` of a bulk item, or a validation error; undefined ids are NetBox's "silently skipped" rows. */
function itemId(item: unknown): number {
  const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).id : undefined;
  if (id === undefined || id === null) throw ValidationError.of('id', 'This field is required.');
  if (!(typeof id === 'number' && Number.isInteger(id)) && !(typeof id === 'string' && /^\d+$/.test(id))) {
    throw ValidationError.of('id', 'A valid integer is required.');
  }
  return Number(id);
}

/** A listed object of a bulk request; missing or outside the permission's constraints: undefined (skipped). */
async function findForBulk(scope: WriteScope, model: Model, id: number, action: Action): Promise<Row | undefined> {
  if (id > 2147483647) return undefined;
  const qb = scope.trx(`${model.table} as t`).select('t.*').where('t.id', id);
  await scope.req.access.restrict(qb, model, action);
  return (await qb.first()) as Row | undefined;
}

/** POST on a list: one object (201 + object) or a list (201 + list), all or nothing. */
export async function create(req: Request, model: Model, services: RestServices): Promise<Json> {
  await req.access.require(model, 'add');
  return inTransaction(req, services, async (scope) => {
    const ctx = { ...renderContext(req, services, scope.trx), created: true };
    if (!Array.isArray(req.payload)) return renderOne(model, await createOne(scope, model, req.payload ?? {}), ctx);
    const rows = await eachItem(req.payload, (item) => createOne(scope, model, item));
    return renderRows(model, rows, ctx, 'full');
  });
}

/** PUT/PATCH on a detail URL. */
export async function update(req: Request, model: Model, id: number, services: RestServices, mode: WriteMode): Promise<Json> {
  return inTransaction(req, services, async (scope) => {
    const instance = await fetchRow(req, model, id, 'change', scope.trx);
    const row = await updateOne(scope, model, instance, req.payload ?? {}, mode);
    return renderOne(model, row, renderContext(req, services, scope.trx));
  });
}

/** PUT/PATCH on a list URL: every listed object updated, or none. */
export async function bulkUpdate(req: Request, model: Model, services: RestServices, mode: WriteMode): Promise<Json> {
  const items = expectList(req.payload);
  await req.access.require(model, 'change');
  return inTransaction(req, services, async (scope) => {
    const rows = await eachItem(items, async (item) => {
      const instance = await findForBulk(scope, model, itemId(item), 'change');
      return instance ? updateOne(scope, model, instance, item, mode) : undefined;
    });
    return renderRows(model, rows, renderContext(req, services, scope.trx), 'full');
  });
}

/** DELETE on a detail URL. */
export async function destroy(req: Request, model: Model, id: number, services: RestServices): Promise<void> {
  await inTransaction(req, services, async (scope) => deleteMany(scope, model, [await fetchRow(req, model, id, 'delete', scope.trx)]));
}

/** DELETE on a list URL with `[{"id": n}, ...]`: all deleted, or none. */
export async function bulkDestroy(req: Request, model: Model, services: RestServices): Promise<void> {
  const items = expectList(req.payload);
  await req.access.require(model, 'delete');
  await inTransaction(req, services, async (scope) => {
    const rows = await eachItem(items, (item) => findForBulk(scope, model, itemId(item), 'delete'));
    await deleteMany(scope, model, rows);
  });
}
