import ipaddr from 'ipaddr.js';
import type { Db } from '../../../kernel/index.js';
import { toBigInt } from '../fields/network.js';

/** A run of addresses to allocate from, inclusive, and where the existing ones are looked up. */
export interface AddressSpan {
  family: 4 | 6;
  first: bigint;
  last: bigint;
  /** The VRF whose addresses are taken (null: the global table); `any`: every VRF's (a global container). */
  vrf: number | null | 'any';
}

/** The address `n` as text. */
export function addressOf(n: bigint, family: 4 | 6): string {
  const bytes: number[] = [];
  for (let i = family === 4 ? 4 : 16, v = n; i > 0; i--, v >>= 8n) bytes.unshift(Number(v & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
}

/** How many taken addresses one round reads. */
const BATCH = 256;

/**
 * The first `limit` addresses of `span` no IP address takes and no populated IP range covers, in order. The taken
 * ones are read in address order from the first candidate on, a batch at a time, through the host index: the cost
 * follows `limit` and the taken addresses met on the way, not the size of the span (a /8 answers like a /24).
 */
export async function freeAddresses(db: Db, span: AddressSpan, limit: number): Promise<bigint[]> {
  const vrf = (qb: ReturnType<Db>) => {
    if (span.vrf === 'any') return qb;
    return span.vrf === null ? qb.whereNull('vrf_id') : qb.where('vrf_id', span.vrf);
  };
  const last = addressOf(span.last, span.family);
  const populated = ((await vrf(db('ipam_iprange'))
    .select(db.raw('host(start_address) as s'), db.raw('host(end_address) as e'))
    .where('mark_populated', true)
    .whereRaw('host(end_address)::inet >= ?::inet and host(start_address)::inet <= ?::inet', [addressOf(span.first, span.family), last])) as { s: string; e: string }[])
    .map((r) => ({ start: toBigInt(r.s), end: toBigInt(r.e) }));
  const free: bigint[] = [];
  let candidate = span.first;
  let taken: bigint[] = [];
  let exhausted = false;
  while (free.length < limit && candidate <= span.last) {
    const range = populated.find((r) => r.start <= candidate && candidate <= r.end);
    if (range) {
      candidate = range.end + 1n;
      continue;
    }
    if (!taken.length && !exhausted) {
      const rows = (await vrf(db('ipam_ipaddress'))
        .distinct(db.raw('host(address)::inet as h'))
        .whereRaw('host(address)::inet >= ?::inet and host(address)::inet <= ?::inet', [addressOf(candidate, span.family), last])
        .orderBy('h')
        .limit(BATCH)) as { h: string }[];
      taken = rows.map((r) => toBigInt(r.h.split('/')[0]));
      exhausted = rows.length < BATCH;
    }
    while (taken.length && taken[0] < candidate) taken.shift();
    if (taken.length && taken[0] === candidate) {
      taken.shift();
      candidate += 1n;
      continue;
    }
    free.push(candidate);
    candidate += 1n;
  }
  return free;
}
