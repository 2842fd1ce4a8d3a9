import type { Knex } from '@mikro-orm/knex';
import { Coalesced } from '../base/coalesced.js';
import type { Logger } from '../base/log.js';
import type { Db } from '../base/types.js';
import type { EventClaim, EventType, ObjectEvent } from './event.js';

/** Who takes committed events from the outbox: a plugin's `events` hook, bound to its context. */
export interface EventReceiver {
  /** Whether changes of `model` of this type are wanted; asked inside every write, so it must be cheap. */
  wants(model: string, type: EventType): boolean;
  /** The events of one or more writes, each delivered once, inside the transaction that takes them from the outbox. */
  receive(events: ObjectEvent[], claim: EventClaim): Promise<void> | void;
  /** Enqueues again what was taken but not enqueued: at start (a process died), and after an enqueue failed. */
  recover?(): Promise<void> | void;
}

/** What writers of events use of the outbox (`Services.events`): a plugin storing events of its own (tracked jobs). */
export interface EventOutboxPort {
  /** Whether any receiver wants this change: only then is the event rendered and stored. */
  wants(model: string, type: EventType): boolean;
  /** Stores events in the writer's transaction; returns the ids of their rows, to `dispatch` after the commit. */
  store(db: Db, events: ObjectEvent[]): Promise<number[]>;
  /** Hands committed rows' events to the receivers, behind the caller (a sweep takes them otherwise). */
  dispatch(ids: number[]): Promise<void>;
}

export const OUTBOX_TABLE = 'core_eventoutbox';
/** Rows a sweep takes at once. */
const SWEEP_BATCH = 100;
/** How long a taking waits for the enqueue of its events' work (a queue that does not answer). */
const ENQUEUE_WAIT_MS = 5000;
/** Rows of this process's writes that may wait to be taken before a write's response waits for its own. */
const DISPATCH_BACKLOG = 32;
/** Events a row holds at most, and rows of this process's writes one taking takes: 200 events a transaction at most. */
const EVENTS_PER_ROW = 100;
const ROWS_PER_TAKING = 2;

/** `work`, or a timeout error after `ms` (the work goes on; its outcome no longer matters here). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer from the queue within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A transactional outbox: a write's events are inserted in the write's own transaction (so a rolled-back write
 * leaves none) and taken out after the commit, in a transaction of their own that deletes them while the receivers
 * record what they will do about them (webhook deliveries). A row is taken once: by the process that wrote it right
 * after its commit, or by a sweep (at start, then periodically) when that process died first. Several processes
 * share the table; `SKIP LOCKED` keeps them from taking the same row.
 */
export class EventOutbox implements EventOutboxPort {
  private readonly receivers: EventReceiver[] = [];
  /** An enqueue after a taking failed (the queue was unreachable): the next sweep recovers. */
  private unrecovered = false;
  private readonly running = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  /** Rows written here, waiting for `dispatch` to take them. */
  private readonly taking = new Coalesced<number>((ids) => this.take((db) => db(OUTBOX_TABLE).select('id').whereIn('id', ids)), ROWS_PER_TAKING);
  private waiting = 0;

  constructor(private readonly knex: Knex, private readonly log: Logger) {}

  add(receiver: EventReceiver): void {
    this.receivers.push(receiver);
  }

  /** Whether any receiver wants this change: only then does a write render the event and store it. */
  wants(model: string, type: EventType): boolean {
    return this.receivers.some((r) => r.wants(model, type));
  }

  /**
   * Stores a write's events in its transaction, EVENTS_PER_ROW to a row (one statement); returns the rows' ids. A big
   * write's rows are taken a few at a time: the work of the first goes out while the others are taken.
   */
  async store(db: Db, events: ObjectEvent[]): Promise<number[]> {
    const rows: ObjectEvent[][] = [];
    for (let i = 0; i < events.length; i += EVENTS_PER_ROW) rows.push(events.slice(i, i + EVENTS_PER_ROW));
    // One JSON text of every row's events (as an array of texts, node-postgres would escape each one character by character).
    const { rows: ids } = (await db.raw(`insert into ?? (events, created) select e, now() from json_array_elements(?::json) with ordinality as r(e, n) order by n returning id`, [
      OUTBOX_TABLE, JSON.stringify(rows),
    ])) as { rows: { id: string | number }[] };
    return ids.map((r) => Number(r.id));
  }

  /**
   * Takes the rows a write stored, once it committed, behind the write's response: rows of writes committing
   * meanwhile are taken together, ROWS_PER_TAKING to a transaction (each receiver given all their events at once).
   * Resolves at once while at most DISPATCH_BACKLOG rows wait to be taken; beyond, once these were (a bound on what
   * writes leave behind). A failure leaves the rows for the sweep.
   */
  async dispatch(ids: number[]): Promise<void> {
    this.waiting += ids.length;
    const taken = Promise.all(ids.map((id) => this.track(this.taking.add(id)))).finally(() => (this.waiting -= ids.length));
    if (this.waiting > DISPATCH_BACKLOG) await taken;
  }

  /**
   * Takes every row left over (at start, before any new write) and then, every `seconds`, rows older than that;
   * has the receivers recover work whose enqueue did not happen, at start and after a failed enqueue.
   */
  async start(seconds: number): Promise<void> {
    await this.recover();
    while ((await this.take((db) => db(OUTBOX_TABLE).select('id').orderBy('id').limit(SWEEP_BATCH))) === SWEEP_BATCH);
    this.timer = setInterval(() => void this.track(this.sweep(seconds)), seconds * 1000);
    this.timer.unref();
  }

  /** Stops sweeping and waits for the dispatches under way. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.settled();
  }

  /** Resolves once the takings under way (and any they led to) ended. */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.all(this.running);
  }

  private async sweep(seconds: number): Promise<void> {
    const stale = (db: Db) =>
      db(OUTBOX_TABLE).select('id').where('created', '<', db.raw(`now() - make_interval(secs => ?)`, [seconds])).orderBy('id').limit(SWEEP_BATCH);
    while ((await this.take(stale)) === SWEEP_BATCH);
    if (this.unrecovered) {
      this.unrecovered = false;
      // Still failing (the queue is still away): the next sweep tries again.
      await this.recover().catch((err: unknown) => {
        this.unrecovered = true;
        throw err;
      });
    }
  }

  private async recover(): Promise<void> {
    for (const receiver of this.receivers) await receiver.recover?.();
  }

  private track(work: Promise<unknown>): Promise<void> {
    const run = work.then(
      () => undefined,
      (err: Error) => this.log.error(`event dispatch failed (the events stay in the outbox): ${err.message}`),
    );
    this.running.add(run);
    return run.finally(() => this.running.delete(run));
  }

  /** Deletes the selected rows (skipping those another process holds) and hands their events over; returns the count. */
  private async take(select: (db: Db) => Knex.QueryBuilder): Promise<number> {
    const after: (() => Promise<void>)[] = [];
    const taken = await this.knex.transaction(async (trx) => {
      const rows = (await trx(OUTBOX_TABLE)
        .whereIn('id', select(trx).forUpdate().skipLocked())
        .delete()
        .returning(['id', 'events'])) as { id: number; events: ObjectEvent[] | string }[];
      if (!rows.length) return 0;
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      const claim: EventClaim = { db: trx, afterCommit: (work) => after.push(work) };
      const events = rows.flatMap((row) => (typeof row.events === 'string' ? (JSON.parse(row.events) as ObjectEvent[]) : row.events));
      for (const receiver of this.receivers) {
        const wanted = events.filter((e) => receiver.wants(e.model, e.type));
        if (wanted.length) await receiver.receive(wanted, claim);
      }
      return rows.length;
    });
    // The events are taken (and their work recorded) whatever happens now: a failed or stuck enqueue is the sweep's
    // to redo (enqueueing a job id twice is a no-op).
    for (const work of after) {
      await within(work(), ENQUEUE_WAIT_MS).catch((err: Error) => {
        this.unrecovered = true;
        this.log.error(`enqueueing the work of taken events failed (the next sweep enqueues it again): ${err.message}`);
      });
    }
    return taken;
  }
}
