import type { Request, RequestHandler } from 'express';
import {
  HttpError, ItemErrors, ValidationError, detailObject, isPlainObject, pageOf, send,
  type Json, type JsonObject, type Model, type PluginContext, type Row, type WriteSession,
} from 'patchbay';

/** The most objects one request lists or takes when no page size bounds it. */
export const CEILING = 65536;

export const insufficient = (): HttpError => new HttpError(409, { detail: 'Insufficient resources are available to satisfy the request' });

/** Sub-endpoints answer other methods as the API does. */
export function methodNotAllowed(req: Request): never {
  throw new HttpError(405, { detail: `Method "${req.method}" not allowed.` });
}

/** The parent's VRF as free resources show it (brief), or null for the global table. */
export async function vrfBrief(ctx: PluginContext, req: Request, vrfId: number | null): Promise<JsonObject | null> {
  if (vrfId === null) return null;
  const vrfs = ctx.registry.get('ipam.vrf');
  const [vrf] = await ctx.as(req).render(vrfs, [(await ctx.db(vrfs.table).where('id', vrfId).first()) as Row], { mode: 'brief' });
  return vrf;
}

/** What one allocation sub-endpoint does with its parent object. */
export interface Allocator {
  /** The first free resources, `limit` at most, as GET lists them. */
  list(parent: Row, limit: number, req: Request): Promise<Json[]>;
  /**
   * Creates one object per item, each taking the next free resource (holding whatever lock keeps parallel
   * allocations apart), and returns the rows; throws `insufficient()` when there are not enough.
   */
  take(parent: Row, items: JsonObject[], session: WriteSession): Promise<{ model: Model; rows: Row[] }>;
}

/**
 * `GET|POST /api/ipam/<parents>/<id>/available-<things>/`: GET lists what is free (`?limit` as list pages, not
 * paginated, as NetBox does); POST takes one object or a list and answers what it created (201), all or nothing.
 */
export function allocationRoute(ctx: PluginContext, parents: Model, allocator: Allocator): RequestHandler {
  return async (req, res) => {
    const parent = await detailObject(req, ctx.as(req), parents);
    if (req.method === 'GET') {
      const limit = Math.min(pageOf(req, ctx.settings).limit ?? CEILING, CEILING);
      send(req, res, 200, await allocator.list(parent, limit, req));
      return;
    }
    const many = Array.isArray(req.payload);
    const items = many ? (req.payload as unknown[]) : [req.payload ?? {}];
    if (items.some((item) => !isPlainObject(item))) throw new ValidationError({ non_field_errors: ['Invalid data. Expected a dictionary.'] });
    if (items.length > CEILING) throw insufficient();
    const created = await ctx
      .as(req)
      .write(async (session) => {
        const { model, rows } = await allocator.take(parent, items as JsonObject[], session);
        return session.render(model, rows, { created: true });
      })
      .catch((err: unknown) => {
        throw err instanceof ItemErrors && !many ? err.first() : err;
      });
    send(req, res, 201, many ? created : created[0]);
  };
}
