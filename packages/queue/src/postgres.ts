import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import {
  abandonedMessage, errorLog, retryDelay, type AbandonedHandler, type EnqueueOptions, type JobHandler, type QueuePort, type QueueLog,
  type QueueStats, type RunAttempt, type Task, type TaskStatus, type WorkerState,
} from './port.js';
import { WorkerTally } from './workers.js';

const JOBS = 'core_queuejob';
const WORKERS = 'core_queueworker';
/** How often a working process looks for jobs other processes enqueued, or whose time came (its own it starts at once). */
const POLL_MS = 1000;
/**
 * How often a working process renews its jobs' locks, tells it is alive, and looks for attempts that never finished,
 * at the most: a third of a lock's time when that is shorter, so that a live job's lock is renewed before it runs out.
 */
const BEAT_MS = 5000;
/** A worker not heard from for this long has ended: it leaves the workers list. */
const WORKER_TTL_MS = 15_000;
/** Finished jobs kept for the background tasks list, as bull keeps them. */
const KEEP_FINISHED = 1000;
/** Abandoned attempts one beat settles at most (each has its own transaction). */
const REAP_BATCH = 100;

/** A job's row; `status` is RQ's, but a queued job whose `run_at` is still ahead is shown as scheduled. */
interface JobRow {
  id: string;
  name: string;
  description: string;
  data: unknown;
  status: 'queued' | 'started' | 'finished' | 'failed';
  attempts: number;
  attempts_made: number;
  backoff_ms: number;
  run_at: Date;
  created: Date;
  enqueued: Date;
  started: Date | null;
  ended: Date | null;
  worker: string | null;
  errors: string[];
  result: unknown;
  scheduled: boolean;
}

/** The row's columns, with whether a queued job waits for its time (by PostgreSQL's clock, as claims are). */
const COLUMNS = `*, (status = 'queued' and run_at > now()) as scheduled`;

export interface PostgresQueueOptions {
  knex: Knex;
  log: QueueLog;
  /** How long a job's lock lasts without renewal: an attempt whose process died is given up after about this. */
  lockSeconds: number;
}

/**
 * The queue without Redis: jobs are rows in PostgreSQL, shared by every process on the database (the servers of
 * `npm start`, `manage worker`s). A job is claimed by one process (`FOR UPDATE SKIP LOCKED`), its attempt counted as
 * it is claimed and its lock renewed while it runs; an attempt whose lock ran out (its process died) counts as
 * failed, and is retried with backoff or fails the job. Job ids are unique: enqueueing one again is a no-op, so each
 * process may recover the same durable work at start and it still runs once.
 */
export class PostgresQueue implements QueuePort {
  readonly kind = 'postgresql';
  readonly name = 'default';
  readonly description = 'PostgreSQL (no Redis): jobs are rows in the database, each claimed by one process';
  private readonly handlers = new Map<string, { run: JobHandler; abandoned?: AbandonedHandler }>();
  private readonly running = new Set<Promise<void>>();
  private tally?: WorkerTally;
  private concurrency = 0;
  private closing = false;
  private claiming = false;
  private again = false;
  private poller?: NodeJS.Timeout;
  private beater?: NodeJS.Timeout;
  private lastPrune = 0;

  constructor(private readonly options: PostgresQueueOptions) {}

  private get knex(): Knex {
    return this.options.knex;
  }

  handle(name: string, handler: JobHandler, abandoned?: AbandonedHandler): void {
    this.handlers.set(name, { run: handler, abandoned });
  }

  async enqueue(name: string, data: unknown, options?: EnqueueOptions): Promise<void> {
    await this.enqueueAll(name, [{ data, options }]);
  }

  async enqueueAll(name: string, jobs: { data: unknown; options?: EnqueueOptions }[]): Promise<void> {
    if (!jobs.length) return;
    const rows = jobs.map(({ data, options = {} }) => ({
      id: options.id ?? randomUUID(), name, description: options.description ?? name, data: data ?? null,
      attempts: Math.max(1, options.attempts ?? 1), backoff_ms: Math.max(0, options.backoffMs ?? 0), delay_ms: Math.max(0, options.delayMs ?? 0),
    }));
    // One statement whatever the number; ids the table holds are left as they are.
    await this.knex.raw(
      `insert into ${JOBS} (id, name, description, data, attempts, backoff_ms, run_at)
       select id, name, description, data, attempts, backoff_ms, now() + make_interval(secs => delay_ms / 1000.0)
       from json_to_recordset(?::json) as j(id text, name text, description text, data jsonb, attempts int, backoff_ms int, delay_ms bigint)
       on conflict (id) do nothing`,
      [JSON.stringify(rows)],
    );
    this.pump();
  }

  async work(concurrency: number): Promise<void> {
    this.tally = new WorkerTally([this.name]);
    this.concurrency = concurrency;
    await this.beat();
    this.poller = setInterval(() => this.pump(), POLL_MS);
    this.poller.unref();
    const every = Math.min(BEAT_MS, (this.options.lockSeconds * 1000) / 3);
    this.beater = setInterval(() => void this.beat().catch((err: Error) => this.options.log.warn(`queue: ${err.message}`)), every);
    this.beater.unref();
    this.pump();
  }

  /** Claims and starts jobs while there is room; one claim at a time (a wake-up meanwhile claims again after it). */
  private pump(): void {
    if (!this.tally || this.closing) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    const room = this.concurrency - this.running.size;
    if (room <= 0) return;
    this.claiming = true;
    this.again = false;
    void this.claim(room).then(
      (rows) => {
        for (const row of rows) this.start(row);
        this.claiming = false;
        if (this.again || rows.length === room) this.pump();
      },
      (err: Error) => {
        this.claiming = false;
        // The database is away: the next poll tries again.
        this.options.log.debug(`queue: cannot claim jobs (${err.message})`);
      },
    );
  }

  /** Takes up to `limit` jobs due, oldest first, counting their attempt and locking them to this process. */
  private async claim(limit: number): Promise<JobRow[]> {
    const { rows } = (await this.knex.raw(
      `update ${JOBS} j set status = 'started', attempts_made = attempts_made + 1, started = now(), ended = null, worker = ?,
         locked_until = now() + make_interval(secs => ?)
       where id in (select id from ${JOBS} where status = 'queued' and run_at <= now() order by run_at, seq limit ? for update skip locked)
       returning ${COLUMNS}`,
      [this.tally!.name, this.options.lockSeconds, limit],
    )) as { rows: JobRow[] };
    return rows;
  }

  private start(row: JobRow): void {
    const run = this.run(row);
    this.running.add(run);
    void run.finally(() => {
      this.running.delete(run);
      this.pump();
    });
  }

  private async run(row: JobRow): Promise<void> {
    const tally = this.tally!;
    tally.started(row.id);
    const attempt: RunAttempt = { attempt: row.attempts_made, attempts: row.attempts, final: row.attempts_made >= row.attempts };
    let failure: unknown;
    let failed = false;
    try {
      const handler = this.handlers.get(row.name);
      if (!handler) throw new Error(`No handler for job ${row.name}`);
      await handler.run(row.data, attempt);
    } catch (err) {
      failed = true;
      failure = err;
    }
    tally.ended(row.id, !failed);
    // Only while it is still this process's: a job stopped, removed or given up meanwhile keeps what happened to it.
    const ours = (db: Knex.QueryBuilder) => db.where({ id: row.id, status: 'started', worker: tally.name });
    try {
      if (!failed) {
        await ours(this.knex(JOBS)).update({ status: 'finished', ended: this.knex.fn.now(), worker: null, locked_until: null });
      } else {
        await ours(this.knex(JOBS)).update(this.failure(row, errorLog(failure), attempt.final));
      }
    } catch (err) {
      // Its lock runs out and the attempt is counted as abandoned.
      this.options.log.warn(`queue: the outcome of job ${row.id} could not be recorded (${(err as Error).message})`);
    }
    this.prune();
  }

  /** A failed attempt: back to the queue after its backoff, or failed for good. */
  private failure(row: Pick<JobRow, 'backoff_ms' | 'attempts_made'>, error: string, final: boolean) {
    const errors = this.knex.raw(`errors || ?::jsonb`, [JSON.stringify([error])]);
    if (final) return { status: 'failed', ended: this.knex.fn.now(), worker: null, locked_until: null, errors };
    const delay = retryDelay(row.backoff_ms, row.attempts_made) / 1000;
    return { status: 'queued', run_at: this.knex.raw(`now() + make_interval(secs => ?)`, [delay]), enqueued: this.knex.fn.now(), worker: null, locked_until: null, errors };
  }

  /** Renews this process's locks and its place in the workers list, and settles attempts whose process died. */
  private async beat(): Promise<void> {
    const tally = this.tally;
    if (!tally || this.closing) return;
    await this.knex(JOBS).where({ worker: tally.name, status: 'started' })
      .update({ locked_until: this.knex.raw(`now() + make_interval(secs => ?)`, [this.options.lockSeconds]) });
    await this.knex.raw(
      `insert into ${WORKERS} (name, state, seen) values (?, ?::jsonb, now()) on conflict (name) do update set state = excluded.state, seen = now()`,
      [tally.name, JSON.stringify(tally.state())],
    );
    await this.knex(WORKERS).where('seen', '<', this.knex.raw(`now() - make_interval(secs => ?)`, [WORKER_TTL_MS / 1000 * 4])).delete();
    for (let n = 0; n < REAP_BATCH && (await this.reapOne()); n++);
  }

  /**
   * One attempt whose lock ran out: its job's handler is told (the delivery log says so), then the attempt counts as
   * failed. Under the row's lock, so that one process settles it.
   */
  private async reapOne(): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const { rows } = (await trx.raw(
        `select ${COLUMNS} from ${JOBS} where status = 'started' and locked_until < now() order by locked_until limit 1 for update skip locked`,
      )) as { rows: JobRow[] };
      const row = rows[0];
      if (!row) return false;
      const run: RunAttempt = { attempt: row.attempts_made, attempts: row.attempts, final: row.attempts_made >= row.attempts };
      const message = abandonedMessage(run);
      this.options.log.warn(`queue: job ${row.id} (${row.name}): ${message}`);
      try {
        await this.handlers.get(row.name)?.abandoned?.(row.data, run);
      } catch (err) {
        this.options.log.error(`queue: job ${row.id} (${row.name}): telling its handler of the abandoned attempt failed: ${(err as Error).message}`);
      }
      await trx(JOBS).where('id', row.id).update(this.failure(row, message, run.final));
      return true;
    });
  }

  /** Keeps the newest KEEP_FINISHED finished jobs, at most once a minute. */
  private prune(): void {
    if (Date.now() - this.lastPrune < 60_000) return;
    this.lastPrune = Date.now();
    void this.knex.raw(
      `delete from ${JOBS} where id in (select id from ${JOBS} where status = 'finished' order by seq desc offset ?)`,
      [KEEP_FINISHED],
    ).catch(() => undefined);
  }

  async ping(): Promise<boolean> {
    return this.knex.raw('select 1').then(() => true, () => false);
  }

  /** Stops claiming; the jobs under way get a lock's time to finish (then their attempt is another process's to settle). */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.poller);
    clearInterval(this.beater);
    if (!this.tally) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((ok) => (timer = setTimeout(ok, this.options.lockSeconds * 1000)));
    await Promise.race([Promise.all(this.running), late]);
    clearTimeout(timer);
    await this.knex(WORKERS).where('name', this.tally.name).delete().catch(() => undefined);
  }

  private toTask(row: JobRow, position: number | null = null): Task {
    const status: TaskStatus = row.scheduled ? 'scheduled' : row.status;
    return {
      id: row.id, name: row.name, description: row.description, queue: this.name, data: row.data, status,
      created: row.created, enqueued: row.enqueued, started: row.started, ended: row.ended,
      workerName: status === 'started' ? row.worker : null, runsAt: row.scheduled ? row.run_at : null, position, attemptsMade: row.attempts_made, attempts: row.attempts,
      errors: row.errors, result: row.result ?? null, timeoutSeconds: 0,
    };
  }

  async tasks(statuses: TaskStatus[]): Promise<Task[]> {
    const rows = (await this.knex.raw(`select ${COLUMNS} from ${JOBS} order by run_at, seq`)).rows as JobRow[];
    const tasks = rows.map((row) => this.toTask(row));
    return statuses.flatMap((status) => tasks.filter((t) => t.status === status).map((t, n) => ({ ...t, position: status === 'queued' ? n : null })));
  }

  async task(id: string): Promise<Task | undefined> {
    const row = (await this.knex.raw(`select ${COLUMNS} from ${JOBS} where id = ?`, [id])).rows[0] as JobRow | undefined;
    return row && this.toTask(row);
  }

  async stats(): Promise<QueueStats> {
    const [counts] = (await this.knex.raw(`select
        count(*) filter (where status = 'queued' and run_at <= now())::int as queued,
        count(*) filter (where status = 'queued' and run_at > now())::int as scheduled,
        count(*) filter (where status = 'started')::int as started,
        count(*) filter (where status = 'finished')::int as finished,
        count(*) filter (where status = 'failed')::int as failed,
        min(enqueued) filter (where status = 'queued' and run_at <= now()) as oldest
      from ${JOBS}`)).rows as { queued: number; scheduled: number; started: number; finished: number; failed: number; oldest: Date | null }[];
    const { oldest, ...byStatus } = counts;
    return { name: this.name, ...byStatus, deferred: 0, oldestQueued: oldest, workers: (await this.workers()).length };
  }

  /** The processes heard from lately; busy when a job is theirs now (their counts are as of their last beat). */
  async workers(): Promise<WorkerState[]> {
    const { rows } = (await this.knex.raw(
      `select w.state, exists (select 1 from ${JOBS} j where j.worker = w.name and j.status = 'started') as busy
       from ${WORKERS} w where w.seen > now() - make_interval(secs => ?) order by w.name`,
      [WORKER_TTL_MS / 1000],
    )) as { rows: { state: WorkerState & { current?: string[] }; busy: boolean }[] };
    return rows.map(({ state: { current: _, ...state }, busy }) => ({ ...state, state: busy ? 'busy' : 'idle', birth: new Date(state.birth) }));
  }

  /** Moves the job in `from` (a scheduled one is queued with its time ahead); false when it is in none. */
  private async move(id: string, where: string, values: Record<string, unknown>): Promise<boolean> {
    const count = await this.knex(JOBS).where('id', id).whereRaw(where).update(values);
    if (count) this.pump();
    return count > 0;
  }

  requeue(id: string): Promise<boolean> {
    return this.move(id, `status = 'failed'`, { status: 'queued', run_at: this.knex.fn.now(), enqueued: this.knex.fn.now(), ended: null });
  }

  promote(id: string): Promise<boolean> {
    return this.move(id, `status = 'queued' and run_at > now()`, { run_at: this.knex.fn.now(), enqueued: this.knex.fn.now() });
  }

  /** The job ends failed; the process running it finishes the run, whose outcome is ignored. */
  stop(id: string): Promise<boolean> {
    return this.move(id, `status = 'started'`, {
      status: 'failed', ended: this.knex.fn.now(), worker: null, locked_until: null, errors: this.knex.raw(`errors || '["Stopped by a user"]'::jsonb`),
    });
  }

  async remove(id: string): Promise<boolean> {
    return (await this.knex(JOBS).where('id', id).delete()) > 0;
  }
}
