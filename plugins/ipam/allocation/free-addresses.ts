import ipaddr from 'ipaddr.js';
import type { Db } from 'patchbay';
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

/** A run of free addresses, inclusive. */
interface Gap {
  first: bigint;
  last: bigint;
}

/**
 * The free runs of `span` from `cursor` on, in order, at most `count` of them, from the taken addresses (an index
 * walk in address order, where PostgreSQL pairs each taken address with the next one and keeps the pairs with room
 * between them, stopping once it has `count`). `resume`: where more runs may start (a taken address), or null
 * when none follow.
 */
async function gaps(db: Db, span: AddressSpan, cursor: bigint, count: number): Promise<{ runs: Gap[]; resume: bigint | null }> {
  const inVrf = span.vrf === 'any' ? '' : span.vrf === null ? 'and vrf_id is null' : 'and vrf_id = ?';
  const vrfBinding = typeof span.vrf === 'number' ? [span.vrf] : [];
  // Each taken address with the next one; the first is kept too, for the run before it. (`case`: `h + 1` is only
  // worked out below another address, never past the last one of the family.)
  const { rows } = (await db.raw(
    `select host(h) as h, host(next) as next from (
       select h, lead(h) over w as next, row_number() over w as n from (
         select distinct host(address)::inet as h from ipam_ipaddress
         where host(address)::inet >= ?::inet and host(address)::inet <= ?::inet ${inVrf}
       ) taken window w as (order by h)
     ) pairs where n = 1 or case when next is null then true else next > h + 1 end order by h limit ?`,
    [addressOf(cursor, span.family), addressOf(span.last, span.family), ...vrfBinding, count + 1],
  )) as { rows: { h: string; next: string | null }[] };
  if (!rows.length) return { runs: [{ first: cursor, last: span.last }], resume: null };
  const runs: Gap[] = [];
  const firstTaken = toBigInt(rows[0].h);
  if (firstTaken > cursor) runs.push({ first: cursor, last: firstTaken - 1n });
  for (const row of rows) {
    const after = toBigInt(row.h) + 1n;
    const next = row.next === null ? span.last + 1n : toBigInt(row.next);
    if (next > after) runs.push({ first: after, last: next - 1n });
  }
  const lastRow = rows[rows.length - 1];
  return { runs, resume: rows.length > count && lastRow.next !== null ? toBigInt(lastRow.next) : null };
}

/**
 * The first `limit` addresses of `span` no IP address takes and no populated IP range covers, in order. Only the
 * runs between taken addresses are read, through the host index and in one statement a round: the cost follows
 * `limit` (and the taken addresses before the first free ones, walked inside PostgreSQL), not the size of the span,
 * so a /8 answers like a /24.
 */
export async function freeAddresses(db: Db, span: AddressSpan, limit: number): Promise<bigint[]> {
  const vrf = (qb: ReturnType<Db>) => {
    if (span.vrf === 'any') return qb;
    return span.vrf === null ? qb.whereNull('vrf_id') : qb.where('vrf_id', span.vrf);
  };
  const populated = ((await vrf(db('ipam_iprange'))
    .select(db.raw('host(start_address) as s'), db.raw('host(end_address) as e'))
    .where('mark_populated', true)
    .whereRaw('host(end_address)::inet >= ?::inet and host(start_address)::inet <= ?::inet', [addressOf(span.first, span.family), addressOf(span.last, span.family)])) as {
    s: string;
    e: string;
  }[]).map((r) => ({ start: toBigInt(r.s), end: toBigInt(r.e) }));
  const free: bigint[] = [];
  let cursor: bigint | null = span.first;
  while (cursor !== null && free.length < limit) {
    const { runs, resume } = await gaps(db, span, cursor, limit - free.length);
    for (const run of runs) {
      for (let n = run.first; n <= run.last && free.length < limit; n++) {
        const range = populated.find((r) => r.start <= n && n <= r.end);
        if (range) n = range.end;
        else free.push(n);
      }
    }
    cursor = resume;
  }
  return free;
}
