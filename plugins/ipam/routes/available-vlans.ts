import type { Db, PluginContext, Row } from 'patchbay';
import { rangesOf } from '../fields/vid-ranges.js';
import { Vlan } from '../models/vlan.js';
import { insufficient, type Allocator } from './allocation.js';

/** The lowest `limit` IDs of the group's ranges none of its VLANs has (at most 4094 to look through). */
async function freeVids(db: Db, group: Row, limit: number): Promise<number[]> {
  const taken = new Set(((await db('ipam_vlan').select('vid').where('group_id', group.id as number)) as { vid: number }[]).map((r) => r.vid));
  const free: number[] = [];
  for (const [lo, hi] of rangesOf(group.vid_ranges)) {
    for (let vid = lo; vid <= hi && free.length < limit; vid++) if (!taken.has(vid)) free.push(vid);
  }
  return free;
}

/** Available VLANs of a VLAN group; POST creates VLANs in the group under a lock per group. */
export function availableVlans(ctx: PluginContext): Allocator {
  return {
    async list(group, limit, req) {
      const [brief] = await ctx.as(req).render(ctx.registry.get('ipam.vlangroup'), [group], { mode: 'brief' });
      return (await freeVids(ctx.db, group, limit)).map((vid) => ({ vid, group: brief }));
    },
    async take(group, items, session) {
      await session.db.raw('select pg_advisory_xact_lock(hashtext(?))', [`ipam_vlan:${group.id}`]);
      const free = await freeVids(session.db, group, items.length);
      if (free.length < items.length) throw insufficient();
      return { model: Vlan, rows: await session.create(Vlan, items.map((item, i) => ({ ...item, vid: free[i], group: group.id }))) };
    },
  };
}
