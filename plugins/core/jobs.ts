import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import { isoTimestamp, abandonedMessage, type EventType, type ObjectEvent, type EventOutboxPort, type StoredEvents, type TrackedJobs, type TrackOptions, JobFailed, type Logger, type Clock, type ModelRegistry, type JsonObject, type Row, type JobRun, type LogLevel, type QueuePort, type RunAttempt } from 'patchbay';
import { WAITING_STATUSES } from './choices.js';
import { Job } from './models/job.js';

/** A tracked job's handler: what it returns (JSON) becomes the job's `data`. */
export type TrackedHandler = (input: unknown, run: JobRun) => Promise<unknown> | unknown;

/** The queue job that runs every tracked job: its id is the tracked job's uuid, so enqueueing twice is a no-op. */
const RUN_JOB = 'core.run_job';
const MINUTE = 60_000;

interface LogEntry {
  level: LogLevel;
  message: string;
  timestamp: string;
}

/** Entries added to a job's log (an abandoned run's entry stays before the next run's own). */
const appendLog = (knex: Knex, entries: LogEntry[]) => knex.raw(`(log_entries::jsonb || ?::jsonb)::json`, [JSON.stringify(entries)]);

/** Where the job's status changes are its events. */
const END_EVENTS: Record<string, EventType> = { completed: 'job_completed', failed: 'job_failed', errored: 'job_errored' };

interface JobRow extends Row {
  id: number;
  name: string;
  status: string;
  job_id: string;
  object_type_id: number | null;
  object_id: number | null;
  user_id: number | null;
  scheduled: Date | null;
  started: Date | null;
  interval: number | null;
  data: unknown;
}

export interface JobRunnerDeps {
  knex: Knex;
  /** Runs of a tracked job whose process dies each time before it is errored (JOB_ATTEMPTS). */
  attempts: number;
  /** The first wait before a run whose process died runs again, doubling each time (JOB_RETRY_DELAY). */
  retryDelayMs: number;
  queue: QueuePort;
  outbox: EventOutboxPort;
  registry: ModelRegistry;
  log: Logger;
  /** What time it is: when scheduled jobs are due, and when a recurring one runs next. */
  clock: Clock;
  /** A job's REST representation (host-less URLs): the `data` of its events. */
  render(row: Row): Promise<JsonObject>;
}

/**
 * Tracked jobs (NetBox's core.Job): a row per run in `/api/core/jobs/` with its status, times, result and log,
 * run by the queue as `core.run_job`. Status changes are events (`job_started`, `job_completed`, `job_failed`,
 * `job_errored`) handed to the event receivers with the change, so event rules see them once. A job with an interval
 * enqueues its next run when it ends.
 */
export class JobRunner implements TrackedJobs {
  private readonly handlers = new Map<string, TrackedHandler>();

  constructor(private readonly deps: JobRunnerDeps) {
    deps.queue.handle(RUN_JOB, (data) => this.run((data as { job: number }).job), (data, run) => this.abandoned((data as { job: number }).job, run));
  }

  /**
   * The queue job of a tracked job: its id is the job's uuid; a scheduled one waits until its time. A handler that
   * raises ends the job (errored, as in NetBox); a run whose process died runs again, up to JOB_ATTEMPTS runs.
   */
  private queued(row: JobRow) {
    const delayMs = row.scheduled ? new Date(row.scheduled).getTime() - this.deps.clock.now() : 0;
    return { data: { job: row.id }, options: { id: `job-${row.job_id}`, description: row.name, delayMs, attempts: this.deps.attempts, backoffMs: this.deps.retryDelayMs } };
  }

  /** A handler by `<plugin>.<job>`, which is also the name of its jobs. */
  register(name: string, handler: TrackedHandler): void {
    this.handlers.set(name, handler);
  }

  /** Records a new job and enqueues it; returns its row. */
  async enqueue(handler: string, options: TrackOptions = {}): Promise<Row> {
    const row = await this.insert(this.deps.knex, handler, options);
    await this.sendOrForget(row);
    return row;
  }

  /** A job the queue did not take is no job: its row goes, and the caller gets the error. */
  private async sendOrForget(row: JobRow): Promise<void> {
    try {
      await this.send(row);
    } catch (err) {
      await this.deps.knex(Job.table).where('id', row.id).delete();
      throw err;
    }
  }

  /**
   * A system job, first run one interval from now: recorded unless one of `handler` is waiting already (several
   * processes start at once; an advisory lock keeps them to one), then queued by `recover` with every waiting job
   * (once the queue answers, if it does not yet). A restart keeps the waiting one and its time.
   */
  async schedule(handler: string, interval: number): Promise<void> {
    await this.deps.knex.transaction(async (trx) => {
      await trx.raw(`select pg_advisory_xact_lock(hashtext(?))`, [`core.job:${handler}`]);
      const waiting = await trx(Job.table).where('name', handler).whereIn('status', WAITING_STATUSES).whereNull('object_type_id').first('id');
      if (!waiting) await this.insert(trx, handler, { interval, scheduleAt: new Date(this.deps.clock.now() + interval * MINUTE) });
    });
  }

  private async insert(db: Knex, handler: string, options: TrackOptions): Promise<JobRow> {
    if (!this.handlers.has(handler)) throw new Error(`No job handler ${handler}`);
    const objectType = options.object ? this.deps.registry.objectTypes.idOf(options.object.model) : null;
    if (options.object && objectType === undefined) throw new Error(`Unknown model ${options.object.model}`);
    const [row] = (await db(Job.table)
      .insert({
        name: handler,
        status: options.scheduleAt ? 'scheduled' : 'pending',
        scheduled: options.scheduleAt ?? null,
        interval: options.interval ?? null,
        object_type_id: objectType,
        object_id: options.object?.id ?? null,
        user_id: options.userId ?? null,
        data: JSON.stringify(options.data ?? null),
        error: '',
        job_id: randomUUID(),
        log_entries: '[]',
        created: db.fn.now(),
        last_updated: db.fn.now(),
      })
      .returning('*')) as JobRow[];
    return row;
  }

  /** At start: enqueue again every waiting job (a process may have died before it did; the queue ignores the ids it holds). */
  async recover(): Promise<void> {
    const rows = (await this.deps.knex(Job.table).whereIn('status', WAITING_STATUSES)) as JobRow[];
    if (rows.length) await this.deps.queue.enqueueAll(RUN_JOB, rows.map((row) => this.queued(row)));
  }

  private async send(row: JobRow): Promise<void> {
    const { data, options } = this.queued(row);
    await this.deps.queue.enqueue(RUN_JOB, data, options);
  }

  private async run(id: number): Promise<void> {
    const { knex } = this.deps;
    // A job run again after its worker died is still "running": it runs again, without a second start event.
    const started = await this.change(id, ['pending', 'scheduled', 'running'], (row) =>
      row.status === 'running' ? undefined : { status: 'running', started: knex.fn.now() },
    );
    if (!started) return;
    // NetBox's JobLogEntry: level, message, timestamp.
    const log: LogEntry[] = [];
    const run: JobRun = {
      attempt: 1, attempts: 1, final: true,
      log: (level, message) => void log.push({ level, message, timestamp: isoTimestamp() }),
    };
    let end: Row;
    try {
      const handler = this.handlers.get(started.name);
      if (!handler) throw new Error(`No job handler ${started.name}`);
      const result = await handler(started.data, run);
      end = { status: 'completed', data: JSON.stringify(result === undefined ? started.data : result) };
    } catch (err) {
      const failed = err instanceof JobFailed;
      const message = err instanceof Error ? err.message : String(err);
      // As NetBox: an exception is the job's `error`; a failure the job reports is in its log.
      end = { status: failed ? 'failed' : 'errored', error: failed ? '' : err instanceof Error ? `${err.name}: ${message}` : message };
      if (failed && message) run.log('error', message);
    }
    const ended = await this.change(id, ['running'], () => ({ ...end, completed: knex.fn.now(), log_entries: appendLog(knex, log) }));
    if (ended?.interval) {
      const from = new Date(ended.scheduled ?? ended.started ?? this.deps.clock.now()).getTime();
      const next = new Date(Math.max(from + ended.interval * MINUTE, this.deps.clock.now() + MINUTE));
      await this.enqueue(ended.name, { interval: ended.interval, userId: ended.user_id, scheduleAt: next, data: started.data,
        object: ended.object_type_id ? { model: this.deps.registry.objectTypes.keyOf(ended.object_type_id)!, id: ended.object_id! } : undefined });
    }
  }

  /**
   * A run whose process died: its log says so, and once no run is left the job ends errored (its end event included).
   */
  private async abandoned(id: number, run: RunAttempt): Promise<void> {
    const message = abandonedMessage(run);
    const entry: LogEntry = { level: 'error', message, timestamp: isoTimestamp() };
    await this.change(id, ['running'], () => (run.final
      ? { status: 'errored', error: message, completed: this.deps.knex.fn.now(), log_entries: appendLog(this.deps.knex, [entry]) }
      : { log_entries: appendLog(this.deps.knex, [entry]) }));
  }

  /**
   * Moves a job on, locking its row (workers of the same job wait on each other), and hands the event of the new
   * status to its receivers in the same transaction; returns the row as it now is, or undefined when it was in none of
   * `from` (deleted, or ended already).
   */
  private async change(id: number, from: string[], values: (row: JobRow) => Row | undefined): Promise<JobRow | undefined> {
    const { knex, outbox } = this.deps;
    let stored: StoredEvents | undefined;
    const row = await knex.transaction(async (trx) => {
      const current = (await trx(Job.table).where('id', id).whereIn('status', from).forUpdate().first()) as JobRow | undefined;
      if (!current) return undefined;
      const update = values(current);
      if (!update) return current;
      const [next] = (await trx(Job.table).where('id', id).update({ ...update, last_updated: trx.fn.now() }).returning('*')) as JobRow[];
      const event = next.status === current.status ? undefined : await this.event(next);
      if (event) stored = await outbox.store(trx, [event]);
      return next;
    });
    if (stored) await outbox.dispatch(stored);
    return row;
  }

  /** The event of a job's status, when a receiver wants it: under its object's model (rules on that model), else `core.job`. */
  private async event(row: JobRow): Promise<ObjectEvent | undefined> {
    const type = row.status === 'running' ? 'job_started' : END_EVENTS[row.status];
    if (!type) return undefined;
    const model = row.object_type_id ? this.deps.registry.objectTypes.keyOf(row.object_type_id) : Job.key;
    if (!model || !this.deps.outbox.wants(model, type)) return undefined;
    const user = row.user_id ? ((await this.deps.knex('users_user').where('id', row.user_id).first('username')) as { username: string } | undefined) : undefined;
    return {
      type, model, id: row.object_id ?? row.id, timestamp: isoTimestamp(), userId: row.user_id, username: user?.username ?? '',
      requestId: randomUUID(), data: await this.deps.render(row), snapshots: { prechange: null, postchange: null },
    };
  }
}
