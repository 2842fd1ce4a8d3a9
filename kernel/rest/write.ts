import type { Request } from 'express';
import { forbidden, type Action } from '../auth/access.js';
import { BulkValidationError } from '../http/errors.js';
import type { Model } from '../model/model.js';
import { renderRows } from '../model/render.js';
import type { WriteMode } from '../model/store.js';
import { ValidationError, type Json, type Row } from '../model/types.js';
import { changelogMessage, writeTransaction, type Actor, type WriteCheck, type WriteSession } from '../model/writer.js';
import { fetchRow, renderContext, renderOne } from './read.js';
import type { RestServices } from './services.js';

export function actorOf(req: Request): Actor {
  return { userId: req.access.userId, username: req.principal.user?.username ?? '', requestId: req.requestId };
}

/** After a write, the object must still satisfy the permission's constraints (or the model's own rule), else 403. */
function permissionCheck(req: Request, services: RestServices): WriteCheck {
  const { access } = req;
  return async (db, model, action, row, previous) => {
    const verdict = model.decl.authorize
      ? await model.decl.authorize(row, {
          action,
          previous,
          userId: access.userId,
          isSuperuser: access.isSuperuser,
          can: (key, a) => access.can(services.registry.get(key), a),
        })
      : 'check';
    if (verdict === 'check' && !(await access.permits(db, model, action, row.id as number))) throw forbidden();
  };
}

/** One write request in one transaction, checked against the requester's permissions. */
function inTransaction<T>(req: Request, services: RestServices, work: (session: WriteSession) => Promise<T>): Promise<T> {
  return writeTransaction(services.db.knex, services, actorOf(req), work, permissionCheck(req, services));
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

/** The `id` of a bulk item, or a validation error. */
function itemId(item: unknown): number {
  const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).id : undefined;
  if (id === undefined || id === null) throw ValidationError.of('id', 'This field is required.');
  if (!(typeof id === 'number' && Number.isInteger(id)) && !(typeof id === 'string' && /^\d+$/.test(id))) {
    throw ValidationError.of('id', 'A valid integer is required.');
  }
  return Number(id);
}

/** A listed object of a bulk request; missing or outside the permission's constraints: undefined (skipped, as NetBox does). */
async function findForBulk(req: Request, session: WriteSession, model: Model, id: number, action: Action): Promise<Row | undefined> {
  if (id > 2147483647) return undefined;
  const qb = session.db(`${model.table} as t`).select('t.*').where('t.id', id);
  await req.access.restrict(qb, model, action);
  return (await qb.first()) as Row | undefined;
}

/** POST on a list: one object (201 + object) or a list (201 + list), all or nothing. */
export async function create(req: Request, model: Model, services: RestServices): Promise<Json> {
  await req.access.require(model, 'add');
  return inTransaction(req, services, async (session) => {
    const ctx = { ...renderContext(req, services, session.db), created: true };
    if (!Array.isArray(req.payload)) return renderOne(model, await session.create(model, req.payload ?? {}), ctx);
    const rows = await eachItem(req.payload, (item) => session.create(model, item));
    return renderRows(model, rows, ctx, 'full');
  });
}

/** PUT/PATCH on a detail URL. */
export async function update(req: Request, model: Model, id: number, services: RestServices, mode: WriteMode): Promise<Json> {
  return inTransaction(req, services, async (session) => {
    const instance = await fetchRow(req, model, id, 'change', session.db);
    const row = await session.update(model, instance, req.payload ?? {}, mode);
    return renderOne(model, row, renderContext(req, services, session.db));
  });
}

/** PUT/PATCH on a list URL: every listed object updated, or none. */
export async function bulkUpdate(req: Request, model: Model, services: RestServices, mode: WriteMode): Promise<Json> {
  const items = expectList(req.payload);
  await req.access.require(model, 'change');
  return inTransaction(req, services, async (session) => {
    const rows = await eachItem(items, async (item) => {
      const instance = await findForBulk(req, session, model, itemId(item), 'change');
      return instance ? session.update(model, instance, item, mode) : undefined;
    });
    return renderRows(model, rows, renderContext(req, services, session.db), 'full');
  });
}

/** DELETE on a detail URL; an optional body may carry `changelog_message`. */
export async function destroy(req: Request, model: Model, id: number, services: RestServices): Promise<void> {
  const message = changelogMessage(req.payload);
  await inTransaction(req, services, async (session) => {
    const row = await fetchRow(req, model, id, 'delete', session.db);
    await session.delete(model, [row], new Map([[id, message]]));
  });
}

/** DELETE on a list URL with `[{"id": n, "changelog_message"?: "..."}, ...]`: all deleted, or none. */
export async function bulkDestroy(req: Request, model: Model, services: RestServices): Promise<void> {
  const items = expectList(req.payload);
  await req.access.require(model, 'delete');
  await inTransaction(req, services, async (session) => {
    const messages = new Map<number, string>();
    const rows = await eachItem(items, async (item) => {
      const row = await findForBulk(req, session, model, itemId(item), 'delete');
      if (row) messages.set(row.id as number, changelogMessage(item));
      return row;
    });
    await session.delete(model, rows, messages);
  });
}
