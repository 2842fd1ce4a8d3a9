import type { PluginContext, Row } from 'patchbay';
import { addressOf, freeAddresses, type AddressSpan } from '../allocation/free-addresses.js';
import { bounds, parseIp, toBigInt, withMask } from '../fields/network.js';
import { IpAddress } from '../models/ip-address.js';
import { insufficient, vrfBrief, type Allocator } from './allocation.js';

/** The addresses a prefix or range hands out, and the mask they carry. */
interface AddressPool {
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

/**
 * Available IPs of prefixes and IP ranges: the first free addresses with the parent's mask and VRF; taking them
 * holds the lock that guards the VRF's duplicate rule, so parallel requests never receive the same address.
 */
export function availableIps(ctx: PluginContext, poolOf: (row: Row) => AddressPool): Allocator {
  return {
    async list(parent, limit, req) {
      const { span, mask, vrfId } = poolOf(parent);
      const [free, vrf] = await Promise.all([freeAddresses(ctx.db, span, limit), vrfBrief(ctx, req, vrfId)]);
      return free.map((n) => ({ family: span.family, address: `${addressOf(n, span.family)}/${mask}`, vrf }));
    },
    async take(parent, items, session) {
      const { span, mask, vrfId } = poolOf(parent);
      await session.db.raw('select pg_advisory_xact_lock(hashtext(?))', [`ipam_ipaddress:${vrfId ?? 'global'}`]);
      const free = await freeAddresses(session.db, span, items.length);
      if (free.length < items.length) throw insufficient();
      const bodies = items.map((item, i) => ({ ...item, address: `${addressOf(free[i], span.family)}/${mask}`, vrf: vrfId }));
      return { model: IpAddress, rows: await session.create(IpAddress, bodies) };
    },
  };
}
