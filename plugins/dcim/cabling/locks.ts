import type { Db } from '../../../kernel/index.js';
import type { PathNode } from './nodes.js';

/**
 * The advisory lock every cabling change holds: shared by changes that lock their nodes one by one, exclusive for
 * one that reaches too many to (a bulk write of a thousand cables, the demo), which then runs alone.
 */
const CABLING = 7_301_114;
/** More nodes than this in one change take the exclusive lock: PostgreSQL's lock table is shared and small. */
const MAX_NODE_LOCKS = 200;
/**
 * How long a change holding cabling locks waits for more. Another change may be waiting for one it holds: PostgreSQL
 * sees that deadlock after a second (`deadlock_timeout`) and fails one of them, which is run again. Past this wait,
 * on a busy server, the write is run again from the start too.
 */
const MORE_LOCKS_WAIT = '2s';

/**
 * The cabling locks of one change (its transaction): each object of a path it reads or writes is locked, so that
 * changes whose paths share no object run side by side, and those that meet take turns. The first locks are taken
 * in the order of their names, holding nothing else; more, should a trace reach further, within MORE_LOCKS_WAIT.
 */
export class CablingLocks {
  private readonly held = new Set<PathNode>();
  private exclusive = false;

  constructor(private readonly db: Db) {}

  /** Locks those of `nodes` not yet held; returns whether it took any (what was read before may have changed). */
  async take(nodes: Iterable<PathNode>): Promise<boolean> {
    if (this.exclusive) return false;
    const missing = [...new Set(nodes)].filter((n) => !this.held.has(n)).sort();
    if (!missing.length) return false;
    const first = !this.held.size;
    const bounded = async (sql: string, bindings: (number | PathNode[])[]) => {
      if (first) return void (await this.db.raw(sql, bindings));
      await this.db.raw(`set local lock_timeout = '${MORE_LOCKS_WAIT}'`);
      await this.db.raw(sql, bindings);
      await this.db.raw('set local lock_timeout = 0');
    };
    if (this.held.size + missing.length > MAX_NODE_LOCKS) {
      await bounded('select pg_advisory_xact_lock(?::bigint)', [CABLING]);
      this.exclusive = true;
      return true;
    }
    // A function scan reads the sorted array in order.
    const nodeLocks = 'select count(pg_advisory_xact_lock(?::int, hashtext(n))) from unnest(?::text[]) as n';
    if (first) await this.db.raw(`select pg_advisory_xact_lock_shared(?::bigint), (${nodeLocks})`, [CABLING, CABLING, missing]);
    else await bounded(nodeLocks, [CABLING, missing]);
    for (const node of missing) this.held.add(node);
    return true;
  }
}
