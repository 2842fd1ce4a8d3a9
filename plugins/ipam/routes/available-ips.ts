import type { Request, RequestHandler } from 'express';
import {
  HttpError, ItemErrors, isPlainObject, notFound, pageOf, send,
  type JsonObject, type Model, type PluginContext, type Row,
} from '../../../kernel/index.js';
import { addressOf, freeAddresses, type AddressSpan } from '../allocation/free-addresses.js';
import { bounds, parseIp, toBigInt, withMask } from '../fields/network.js';
import { IpAddress } from '../models/ip-address.js';

/** The addresses a prefix or range hands out, and the mask they carry. */
export interface AddressPool {
  span: AddressSpan;
  mask: number;
  vrfId: number | null;
}

/** A prefix's pool: all of it for pools and point-to-point sizes; otherwise not the network ID, nor an IPv4 broadcast. */
export function prefixPool(prefix: Row): AddressPool {
  const ip = parseIp(String(prefix.prefix))!;
  const { network, broadcast } = bounds(`${ip.address}/${ip.length}`, ip.family);
  let first = toBigInt(network);
  let last = toBigInt(broadcast);
  const bits = ip.family === 4 ? 32 : 128;
  if (!prefix.is_pool && ip.length < bits - 1) {
    first += 1n;
    if (ip.family === 4) last -= 1n;
  }
  const vrfId = (prefix.vrf_id as number | null) ?? null;
  // A container in the global table counts the addresses of every VRF inside it.
  const vrf = vrfId === null && prefix.status === 'container' ? 'any' : vrfId;
  return { span: { family: ip.family, first, last, vrf }, mask: ip.length, vrfId };
}

/** A range's pool: start to end, none at all when it is marked populated. */
export function rangePool(range: Row): AddressPool {
  const start = parseIp(withMask(String(range.start_address)))!;
  const end = parseIp(withMask(String(range.end_address)))!;
  const vrfId = (range.vrf_id as number | null) ?? null;
  const first = toBigInt(start.address);
  const last = range.mark_populated ? first - 1n : toBigInt(end.address);
  return { span: { family: start.family, first, last, vrf: vrfId }, mask: start.length, vrfId };
}

/** The most addresses one request lists or takes when no page size bounds it. */
const CEILING = 65536;

/** Sub-endpoints answer other methods as the API does. */
export function methodNotAllowed(req: Request): never {
  throw new HttpError(405, { detail: `Method "${req.method}" not allowed.` });
}

const INSUFFICIENT = () => new HttpError(409, { detail: 'Insufficient resources are available to satisfy the request' });

/**
 * `GET|POST /api/ipam/<parents>/<id>/available-ips/` for prefixes and IP ranges. GET lists the first free addresses
 * (`?limit`, as list pages) with the parent's mask and VRF; POST creates one address per item of the body (an object
 * or a list), each the next free one, and answers them as created. The allocation holds the lock that guards the
 * VRF's duplicate rule, so parallel requests never receive the same address.
 */
export function availableIpsRoute(ctx: PluginContext, parents: Model, poolOf: (row: Row) => AddressPool): RequestHandler {
  const parentOf = async (req: Request) => {
    const id = /^\d{1,9}$/.test(String(req.params.id)) ? Number(req.params.id) : undefined;
    const row = id === undefined ? undefined : await ctx.as(req).get(parents, id);
    if (!row) throw notFound();
    return row;
  };
  const vrfBrief = async (req: Request, vrfId: number | null): Promise<JsonObject | null> => {
    if (vrfId === null) return null;
    const vrfs = ctx.registry.get('ipam.vrf');
    const [vrf] = await ctx.as(req).render(vrfs, [(await ctx.db(vrfs.table).where('id', vrfId).first()) as Row], { mode: 'brief' });
    return vrf;
  };
  return async (req, res) => {
    const pool = poolOf(await parentOf(req));
    const { span, mask, vrfId } = pool;
    if (req.method === 'GET') {
      const limit = Math.min(pageOf(req, ctx.settings).limit ?? CEILING, CEILING);
      const [free, vrf] = await Promise.all([freeAddresses(ctx.db, span, limit), vrfBrief(req, vrfId)]);
      send(req, res, 200, free.map((n) => ({ family: span.family, address: `${addressOf(n, span.family)}/${mask}`, vrf })));
      return;
    }
    const many = Array.isArray(req.payload);
    const items = many ? (req.payload as unknown[]) : [req.payload ?? {}];
    if (items.length > CEILING) throw INSUFFICIENT();
    const created = await ctx
      .as(req)
      .write(async (session) => {
        await session.db.raw('select pg_advisory_xact_lock(hashtext(?))', [`ipam_ipaddress:${vrfId ?? 'global'}`]);
        const free = await freeAddresses(session.db, span, items.length);
        if (free.length < items.length) throw INSUFFICIENT();
        const bodies = items.map((item, i) => ({ ...(isPlainObject(item) ? item : {}), address: `${addressOf(free[i], span.family)}/${mask}`, vrf: vrfId }));
        return session.render(IpAddress, await session.create(IpAddress, bodies), { created: true });
      })
      .catch((err: unknown) => {
        throw err instanceof ItemErrors && !many ? err.first() : err;
      });
    send(req, res, 201, many ? created : created[0]);
  };
}
