import type { Knex } from '@mikro-orm/knex';
import type { Db } from 'patchbay';
import type { PathNode } from './nodes.js';

/**
 * The advisory lock every cabling change holds: shared by changes that lock their nodes one by one, exclusive for
 * one that reaches too many to (a bulk write of a thousand cables), which then runs alone.
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
  // The whole cabling is locked (exclusive or shared): no object is locked on its own.
  private whole = false;

  /**
   * `alone`: take the exclusive lock at once (a change that kept meeting others runs by itself). `shared`: the shared
   * lock only, no object's (the demo's parts, each tracing the new cables of its own sites, the paths of which
   * meet only at objects no cable ends on, such as providers' networks): parts run side by side, where the exclusive
   * lock their many objects took had one wait for the other's commit, and deadlocked two parts.
   */
  constructor(private readonly db: Db, private readonly mode: 'objects' | 'alone' | 'shared' = 'objects') {}

  /**
   * The first locks, in the statement that finds what to lock: the nodes `reached` (a query of one `node` column)
   * answers, in the order of their names, or the exclusive lock when they are too many.
   */
  async takeFirst(reached: string, bindings: readonly Knex.Value[]): Promise<void> {
    if (this.mode !== 'objects') return this.takeWhole();
    const { rows } = (await this.db.raw(
      `with reached as materialized (select distinct node collate "C" as node from (${reached}) r order by 1)
       select array(select node from reached) as nodes,
         case when (select count(*) from reached) > ? then pg_advisory_xact_lock(?::bigint)::text
           else pg_advisory_xact_lock_shared(?::bigint)::text || (select count(pg_advisory_xact_lock(?::int, hashtext(node))) from reached)::text end as locked`,
      [...bindings, MAX_NODE_LOCKS, CABLING, CABLING, CABLING],
    )) as { rows: { nodes: PathNode[] }[] };
    const [{ nodes }] = rows;
    if (nodes.length > MAX_NODE_LOCKS) this.whole = true;
    else for (const node of nodes) this.held.add(node);
  }

  /**
   * Counts `nodes` as held without a statement: the objects of new cables between endpoints that were free, whose
   * rows the write has locked. No other change reaches them before the write commits (a path holds an endpoint only
   * while it is cabled), and every change that would touch them waits for those row locks.
   */
  assume(nodes: Iterable<PathNode>): void {
    for (const node of nodes) this.held.add(node);
  }

  /** The whole cabling's lock, exclusive (`alone`) or shared (`shared`), instead of objects' locks. */
  async takeWhole(): Promise<void> {
    if (this.whole) return;
    await this.db.raw(`select pg_advisory_xact_lock${this.mode === 'shared' ? '_shared' : ''}(?::bigint)`, [CABLING]);
    this.whole = true;
  }

  /**
   * Locks those of `nodes` not yet held, after the first ones, waiting MORE_LOCKS_WAIT at most; returns whether it
   * took any (what was read before may have changed).
   */
  async take(nodes: Iterable<PathNode>): Promise<boolean> {
    if (this.whole) return false;
    const missing = [...new Set(nodes)].filter((n) => !this.held.has(n)).sort();
    if (!missing.length) return false;
    const exclusive = this.held.size + missing.length > MAX_NODE_LOCKS;
    await this.db.raw(`set local lock_timeout = '${MORE_LOCKS_WAIT}'`);
    if (exclusive) await this.db.raw('select pg_advisory_xact_lock(?::bigint)', [CABLING]);
    // A function scan reads the sorted array in order.
    else await this.db.raw('select count(pg_advisory_xact_lock(?::int, hashtext(n))) from unnest(?::text[]) as n', [CABLING, missing]);
    await this.db.raw('set local lock_timeout = 0');
    if (exclusive) this.whole = true;
    else for (const node of missing) this.held.add(node);
    return true;
  }
}
