import type { Request } from 'express';
import { baseUrl } from '../http/request.js';
import type { Model } from '../model/model.js';
import { ItemErrors, ValidationError, type Json, type JsonObject } from '../base/types.js';
import { isPlainObject, pythonType } from '../base/values.js';
import type { Actor } from '../write/context.js';
import type { Target, WriteSession } from '../write/session.js';
import type { RestServices } from './services.js';

/**
 * The REST side of writes: each handler maps its request to one write-session call and the rendered result
 * back; parsing, locking, storing, hooks, change records and events are the session's.
 */

export function actorOf(req: Request): Actor {
  return { userId: req.access.userId, username: req.principal.user?.username ?? '', requestId: req.requestId };
}

/** One write request in one session, as the requester (their permissions), URLs from the request's host. */
async function write<T>(req: Request, services: RestServices, bulk: boolean, work: (session: WriteSession) => Promise<T>): Promise<T> {
  try {
    return await services.writes.run({ actor: actorOf(req), gate: req.access, baseUrl: baseUrl(req) }, work);
  } catch (err) {
    // A one-object request reports its errors as an object, a bulk request as a list aligned with its items.
    if (err instanceof ItemErrors && !bulk) throw err.first();
    throw err;
  }
}

/** A bulk request's items, at most MAX_BULK_OBJECTS of them: one transaction holds every lock of a write until it ends. */
function bulkItems(body: unknown[], services: RestServices): unknown[] {
  const max = services.settings.MAX_BULK_OBJECTS;
  if (body.length > max) throw new ValidationError({ non_field_errors: [`A bulk request may hold at most ${max} objects; this one holds ${body.length}.`] });
  return body;
}

function expectList(body: unknown, services: RestServices): unknown[] {
  if (Array.isArray(body)) return bulkItems(body, services);
  throw new ValidationError({ non_field_errors: [`Expected a list of items but got type "${pythonType(body)}".`] });
}

/** Bulk items name their object by `id`. */
const targetsOf = (items: unknown[]): Target[] => items.map((item) => ({ id: isPlainObject(item) ? item.id : undefined, body: item }));

/** POST on a list: one object (201 + object) or a list (201 + list), all or nothing. */
export async function create(req: Request, model: Model, services: RestServices): Promise<Json> {
  const bulk = Array.isArray(req.payload);
  const bodies = bulk ? bulkItems(req.payload as unknown[], services) : [req.payload ?? {}];
  const rendered = await write(req, services, bulk, async (s) => s.render(model, await s.create(model, bodies), { created: true }));
  return bulk ? rendered : rendered[0];
}

/** PUT/PATCH on a detail URL. */
export async function update(req: Request, model: Model, id: number, mode: 'update' | 'partial', services: RestServices): Promise<JsonObject> {
  const [rendered] = await write(req, services, false, async (s) => s.render(model, await s.update(model, [{ id, body: req.payload ?? {} }], mode)));
  return rendered;
}

/** PUT/PATCH on a list URL: every listed object updated, or none; objects missing or not permitted are skipped. */
export async function bulkUpdate(req: Request, model: Model, mode: 'update' | 'partial', services: RestServices): Promise<Json> {
  const targets = targetsOf(expectList(req.payload, services));
  return write(req, services, true, async (s) => s.render(model, await s.update(model, targets, mode, { missing: 'skip' })));
}

/** DELETE on a detail URL; an optional body may carry `changelog_message`. */
export async function destroy(req: Request, model: Model, id: number, services: RestServices): Promise<void> {
  const body = isPlainObject(req.payload) ? req.payload : {};
  await write(req, services, false, (s) => s.delete(model, [{ id, body }]));
}

/** DELETE on a list URL with `[{"id": n, "changelog_message"?: "..."}, ...]`: all deleted, or none. */
export async function bulkDestroy(req: Request, model: Model, services: RestServices): Promise<void> {
  const targets = targetsOf(expectList(req.payload, services));
  await write(req, services, true, (s) => s.delete(model, targets, { missing: 'skip' }));
}
