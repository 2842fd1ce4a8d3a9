import type { Knex } from '@mikro-orm/knex';
import type { Logger } from '../base/log.js';
import type { Db } from '../base/types.js';
import type { EventClaim, EventType, ObjectEvent } from './event.js';

/** Who takes committed events: a plugin's `events` hook, bound to its context. */
export interface EventReceiver {
  /** Whether changes of `model` of this type are wanted; asked inside every write, so it must be cheap. */
  wants(model: string, type: EventType): boolean;
  /** The events of one write, inside its transaction: what the receiver records there commits with the write. */
  receive(events: ObjectEvent[], claim: EventClaim): Promise<void> | void;
  /** Enqueues again what was recorded but not enqueued: at start (a process died), and after an enqueue failed. */
  recover?(): Promise<void> | void;
}

/** What receivers left to do once the transaction their events were given in committed (enqueue their work). */
export interface StoredEvents {
  /** The receivers' `claim.afterCommit` work, in order. */
  readonly afterCommit: readonly (() => Promise<void>)[];
}

/** What writers of events use of the outbox (`Services.events`): a plugin writing events of its own (tracked jobs). */
export interface EventOutboxPort {
  /** Whether any receiver wants this change: only then is the event rendered and handed over. */
  wants(model: string, type: EventType): boolean;
  /** Hands events to the receivers in the writer's transaction; what it returns is to `dispatch` after the commit. */
  store(db: Db, events: ObjectEvent[]): Promise<StoredEvents>;
  /** Runs what the receivers left for after the commit (enqueueing), behind the caller. */
  dispatch(stored: StoredEvents): Promise<void>;
}

/** Where earlier versions stored events between a write and their taking: rows left there are taken at start. */
const OUTBOX_TABLE = 'core_eventoutbox';
/** Rows taken at once from OUTBOX_TABLE. */
const LEFTOVER_BATCH = 100;
/** How long an enqueue after a commit may take (a queue that does not answer). */
const ENQUEUE_WAIT_MS = 5000;
/** Writes whose enqueueing may wait behind their responses before a write's response waits for its own. */
const DISPATCH_BACKLOG = 32;

/** `work`, or a timeout error after `ms` (the work goes on; its outcome no longer matters here). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer from the queue within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A transactional outbox whose rows are the receivers' own: a write hands its events to the receivers inside its
 * transaction, and what they record there (webhook deliveries, pending) commits or rolls back with the write, each
 * event received once. After the commit they enqueue that work; should the process die or the queue fail first, the
 * work waits in their rows, and `recover` enqueues it again at the next start, or at the next sweep after a failed
 * enqueue.
 */
export class EventOutbox implements EventOutboxPort {
  private readonly receivers: EventReceiver[] = [];
  /** An enqueue after a commit failed (the queue was unreachable): the next sweep recovers. */
  private unrecovered = false;
  private readonly running = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private waiting = 0;

  constructor(private readonly knex: Knex, private readonly log: Logger) {}

  add(receiver: EventReceiver): void {
    this.receivers.push(receiver);
  }

  /** Whether any receiver wants this change: only then does a write render the event and hand it over. */
  wants(model: string, type: EventType): boolean {
    return this.receivers.some((r) => r.wants(model, type));
  }

  /** Hands a write's events to each receiver wanting some of them, in the write's transaction `db`. */
  async store(db: Db, events: ObjectEvent[]): Promise<StoredEvents> {
    const afterCommit: (() => Promise<void>)[] = [];
    const claim: EventClaim = { db, afterCommit: (work) => afterCommit.push(work) };
    for (const receiver of this.receivers) {
      const wanted = events.filter((e) => receiver.wants(e.model, e.type));
      if (wanted.length) await receiver.receive(wanted, claim);
    }
    return { afterCommit };
  }

  /**
   * Runs what the receivers left for after the commit, behind the write's response: at once while at most
   * DISPATCH_BACKLOG writes wait for theirs; beyond, the response waits (a bound on what writes leave behind).
   */
  async dispatch(stored: StoredEvents): Promise<void> {
    if (!stored.afterCommit.length) return;
    this.waiting++;
    const done = this.track(this.enqueue(stored.afterCommit)).finally(() => this.waiting--);
    if (this.waiting > DISPATCH_BACKLOG) await done;
  }

  /**
   * Takes rows an earlier version left in OUTBOX_TABLE and has the receivers recover work whose enqueue did not
   * happen (at start, before any new write); then, every `seconds`, recovers again after a failed enqueue.
   */
  async start(seconds: number): Promise<void> {
    await this.recover();
    while ((await this.takeLeftovers()) === LEFTOVER_BATCH);
    this.timer = setInterval(() => void this.track(this.sweep()), seconds * 1000);
    this.timer.unref();
  }

  /** Stops sweeping and waits for the enqueues under way. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.settled();
  }

  /** Resolves once the enqueues under way ended. */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.all(this.running);
  }

  private async sweep(): Promise<void> {
    if (!this.unrecovered) return;
    this.unrecovered = false;
    // Still failing (the queue is still away): the next sweep tries again.
    await this.recover().catch((err: unknown) => {
      this.unrecovered = true;
      throw err;
    });
  }

  private async recover(): Promise<void> {
    for (const receiver of this.receivers) await receiver.recover?.();
  }

  private track(work: Promise<unknown>): Promise<void> {
    const run = work.then(
      () => undefined,
      (err: Error) => this.log.error(`recovering work of committed events failed (the next sweep tries again): ${err.message}`),
    );
    this.running.add(run);
    return run.finally(() => this.running.delete(run));
  }

  /** The events' work is recorded whatever happens now: a failed or stuck enqueue is the next sweep's to redo. */
  private async enqueue(works: readonly (() => Promise<void>)[]): Promise<void> {
    for (const work of works) {
      await within(work(), ENQUEUE_WAIT_MS).catch((err: Error) => {
        this.unrecovered = true;
        this.log.error(`enqueueing the work of committed events failed (the next sweep enqueues it again): ${err.message}`);
      });
    }
  }

  /** Deletes rows of OUTBOX_TABLE (skipping those another process holds) and hands their events over; returns the count. */
  private async takeLeftovers(): Promise<number> {
    let stored: StoredEvents = { afterCommit: [] };
    const taken = await this.knex.transaction(async (trx) => {
      const rows = (await trx(OUTBOX_TABLE)
        .whereIn('id', trx(OUTBOX_TABLE).select('id').orderBy('id').limit(LEFTOVER_BATCH).forUpdate().skipLocked())
        .delete()
        .returning(['id', 'events'])) as { id: number; events: ObjectEvent[] | string }[];
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      const events = rows.flatMap((row) => (typeof row.events === 'string' ? (JSON.parse(row.events) as ObjectEvent[]) : row.events));
      if (events.length) stored = await this.store(trx, events);
      return rows.length;
    });
    await this.enqueue(stored.afterCommit);
    return taken;
  }
}
