import type { Db } from 'patchbay';
import { bounds, parseIp, toBigInt, withMask } from '../fields/network.js';
import { addressOf } from './free-addresses.js';

/** A network as numbers: its first and last address and its mask length. */
export interface Block {
  family: 4 | 6;
  first: bigint;
  last: bigint;
  length: number;
}

export function blockOf(prefix: string): Block {
  const ip = parseIp(withMask(prefix))!;
  const { network, broadcast } = bounds(`${ip.address}/${ip.length}`, ip.family);
  return { family: ip.family, first: toBigInt(network), last: toBigInt(broadcast), length: ip.length };
}

export const blockText = (block: Block): string => `${addressOf(block.first, block.family)}/${block.length}`;

/** The fewest CIDR blocks covering `first`..`last`, in order (netaddr's `iter_cidrs`). */
function* cidrs(first: bigint, last: bigint, family: 4 | 6): Generator<Block> {
  const bits = family === 4 ? 32 : 128;
  let start = first;
  while (start <= last) {
    let size = 0;
    while (size < bits && (start & ((1n << BigInt(size + 1)) - 1n)) === 0n && start + (1n << BigInt(size + 1)) - 1n <= last) size++;
    yield { family, first: start, last: start + (1n << BigInt(size)) - 1n, length: bits - size };
    start += 1n << BigInt(size);
  }
}

/** How many child prefixes one round reads. */
const BATCH = 256;

/**
 * The free space of `parent` (child prefixes of `vrf` taken out; `any`: of every VRF), as the fewest CIDR blocks,
 * in order, until `enough` says stop. Children are read in address order from the end of the last one on, a batch
 * at a time, so the cost follows what is returned, not how many prefixes the parent holds.
 */
export async function freePrefixes(db: Db, parent: Block, vrf: number | null | 'any', enough: (found: Block[]) => boolean): Promise<Block[]> {
  const free: Block[] = [];
  const text = blockText(parent);
  let cursor = parent.first;
  let exhausted = false;
  while (!exhausted && cursor <= parent.last && !enough(free)) {
    let qb = db('ipam_prefix')
      .select(db.raw('prefix::text as p'))
      .whereRaw('prefix << ?::cidr', [text])
      .whereRaw('host(prefix)::inet >= ?::inet', [addressOf(cursor, parent.family)])
      .orderByRaw('host(prefix)::inet, masklen(prefix)')
      .limit(BATCH);
    if (vrf !== 'any') qb = vrf === null ? qb.whereNull('vrf_id') : qb.where('vrf_id', vrf);
    const children = ((await qb) as { p: string }[]).map((r) => blockOf(r.p));
    exhausted = children.length < BATCH;
    for (const child of children) {
      // A child inside one already taken out adds nothing.
      if (child.first < cursor) continue;
      if (child.first > cursor) free.push(...cidrs(cursor, child.first - 1n, parent.family));
      cursor = child.last + 1n;
      if (enough(free)) return free;
    }
  }
  if (cursor <= parent.last && !enough(free)) free.push(...cidrs(cursor, parent.last, parent.family));
  return free;
}

/** The first block of `length` inside the free space, or undefined. */
export function firstFit(free: Block[], length: number): Block | undefined {
  const bits = free[0]?.family === 6 ? 128 : 32;
  const block = free.find((b) => b.length <= length);
  if (!block) return undefined;
  return { family: block.family, first: block.first, last: block.first + (1n << BigInt(bits - length)) - 1n, length };
}
