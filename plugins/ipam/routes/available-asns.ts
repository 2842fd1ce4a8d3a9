import type { Db, PluginContext, Row } from 'patchbay';
import { Asn } from '../models/asn.js';
import { insufficient, type Allocator } from './allocation.js';

const BATCH = 256;

/** The first `limit` numbers of start..end no ASN has, reading the taken ones in order from the first candidate. */
async function freeAsns(db: Db, start: number, end: number, limit: number): Promise<number[]> {
  const free: number[] = [];
  let candidate = start;
  while (free.length < limit && candidate <= end) {
    const taken = ((await db('ipam_asn').select('asn').whereBetween('asn', [candidate, end]).orderBy('asn').limit(BATCH)) as { asn: string }[]).map((r) => Number(r.asn));
    for (const asn of taken) {
      while (candidate < asn && free.length < limit) free.push(candidate++);
      if (free.length >= limit) return free;
      candidate = asn + 1;
    }
    if (taken.length < BATCH) while (candidate <= end && free.length < limit) free.push(candidate++);
  }
  return free;
}

/** Available ASNs of an ASN range; POST creates ASNs of the range's RIR under a lock, so no two requests get one. */
export function availableAsns(ctx: PluginContext): Allocator {
  const bounds = (range: Row) => [Number(range.start), Number(range.end)] as const;
  return {
    async list(range, limit) {
      const [start, end] = bounds(range);
      return (await freeAsns(ctx.db, start, end, limit)).map((asn) => ({ asn }));
    },
    async take(range, items, session) {
      const [start, end] = bounds(range);
      await session.db.raw('select pg_advisory_xact_lock(hashtext(?))', ['ipam_asn']);
      const free = await freeAsns(session.db, start, end, items.length);
      if (free.length < items.length) throw insufficient();
      return { model: Asn, rows: await session.create(Asn, items.map((item, i) => ({ ...item, asn: free[i], rir: range.rir_id }))) };
    },
  };
}
