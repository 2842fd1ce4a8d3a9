import { ValidationError, type PluginContext, type Row } from 'patchbay';
import { blockOf, blockText, firstFit, freePrefixes, type Block } from '../allocation/free-prefixes.js';
import { Prefix } from '../models/prefix.js';
import { insufficient, vrfBrief, type Allocator } from './allocation.js';

/** The prefix's VRF, or every VRF for a container in the global table (its children may sit in any). */
const childVrf = (prefix: Row): number | null | 'any' => {
  const vrf = (prefix.vrf_id as number | null) ?? null;
  return vrf === null && prefix.status === 'container' ? 'any' : vrf;
};

/** `prefix_length` of a POST item: a whole number a prefix of the family can have. */
function lengthOf(item: Record<string, unknown>, family: 4 | 6): number {
  const value = item.prefix_length;
  if (value === undefined || value === null || value === '') throw new ValidationError({ prefix_length: ['This field is required.'] });
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new ValidationError({ prefix_length: ['A valid integer is required.'] });
  const max = family === 4 ? 32 : 128;
  if (n < 0 || n > max) throw new ValidationError({ prefix_length: [`Invalid prefix length (${n}) for IPv${family}.`] });
  return n;
}

/**
 * Available prefixes: the free space of a prefix as the fewest CIDR blocks (child prefixes of its VRF taken out);
 * POST takes, per item, the first free block of its `prefix_length`, in the parent's VRF, under the lock that
 * guards the VRF's duplicate rule.
 */
export function availablePrefixes(ctx: PluginContext): Allocator {
  return {
    async list(parent, limit, req) {
      const block = blockOf(String(parent.prefix));
      const free = (await freePrefixes(ctx.db, block, childVrf(parent), (found) => found.length >= limit)).slice(0, limit);
      const vrf = await vrfBrief(ctx, req, (parent.vrf_id as number | null) ?? null);
      return free.map((b) => ({ family: b.family, prefix: blockText(b), vrf }));
    },
    async take(parent, items, session) {
      const block = blockOf(String(parent.prefix));
      const lengths = items.map((item) => lengthOf(item, block.family));
      const vrfId = (parent.vrf_id as number | null) ?? null;
      await session.db.raw('select pg_advisory_xact_lock(hashtext(?))', [`ipam_prefix:${vrfId ?? 'global'}`]);
      const rows: Row[] = [];
      // One at a time: each new prefix is a child the next one must avoid.
      for (const [i, item] of items.entries()) {
        const free = await freePrefixes(session.db, block, childVrf(parent), (found) => firstFit(found, lengths[i]) !== undefined);
        const fit: Block | undefined = firstFit(free, lengths[i]);
        if (!fit) throw insufficient();
        const { prefix_length: _length, ...fields } = item;
        rows.push(...(await session.create(Prefix, [{ ...fields, prefix: blockText(fit), vrf: vrfId }])));
      }
      return { model: Prefix, rows };
    },
  };
}
