import type { Redis } from 'ioredis';
/** Redis cannot be reached: what needs the queue fails at once (an HTTP server answers 503) rather than wait for it. */
export class QueueUnavailable extends Error {
  readonly status = 503;

  constructor() {
    super('The queue (Redis) is unavailable; try again in a few seconds.');
  }
}

/** Where a queue reports what it cannot tell its callers (a lock it could not renew, an outcome it could not record). */
export interface QueueLog {
  debug(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** One run of a queued job: which attempt it is and whether a failure would be its last. */
export interface RunAttempt {
  /** 1 for the first attempt. */
  attempt: number;
  attempts: number;
  /** A failure of this run leaves the job failed (no retry follows). */
  final: boolean;
}

export type LogLevel = 'debug' | 'info' | 'warning' | 'error';

/** A run as a plugin's job handler sees it: the attempt, and a log (the job's own in /api/core/jobs/, else the server's). */
export interface JobRun extends RunAttempt {
  log(level: LogLevel, message: string): void;
}

/** A background job handler; throwing fails the run (retried while attempts remain). */
export type JobHandler = (data: unknown, run: RunAttempt) => Promise<void> | void;

/**
 * Told of an attempt that never reported back (its process was killed, ran out of memory or hung past its lock):
 * the queue counts it as a failed attempt, retries it with backoff while attempts remain (`final` false) or fails the
 * job, so that the job's own records (a delivery's log, a tracked job's status) can say so. Called before the queue
 * records it: it may be called again for the same attempt if this process dies meanwhile.
 */
export type AbandonedHandler = (data: unknown, run: RunAttempt) => Promise<void> | void;

/** What an abandoned attempt's error log says. */
export const abandonedMessage = (run: RunAttempt) =>
  `Attempt ${run.attempt} of ${run.attempts} did not finish: the process running it ended (killed, out of memory) or stopped answering.`;

/** How long a job waits before its next attempt once `attemptsMade` failed: `backoffMs`, doubling each time. */
export function retryDelay(backoffMs: number, attemptsMade: number): number {
  return backoffMs * 2 ** Math.max(0, attemptsMade - 1);
}

export interface EnqueueOptions {
  /** Jobs are unique by id: enqueueing an id the queue holds again is a no-op (durable work recovered at start). */
  id?: string;
  /** Runs in all, retries included (default 1). */
  attempts?: number;
  /** The first retry's delay; each next one doubles it (`retryDelay`). */
  backoffMs?: number;
  /** Runs no sooner than this from now (the job is "scheduled" until then). */
  delayMs?: number;
  /** What the job does, in words, for the background tasks list. */
  description?: string;
}

/** RQ's statuses, which NetBox's background tasks show. */
export type TaskStatus = 'queued' | 'started' | 'finished' | 'failed' | 'scheduled' | 'deferred' | 'stopped' | 'canceled';
export const TASK_STATUSES: TaskStatus[] = ['queued', 'started', 'finished', 'failed', 'scheduled', 'deferred', 'stopped', 'canceled'];

/** A job as the background tasks show it. */
export interface Task {
  id: string;
  name: string;
  description: string;
  queue: string;
  data: unknown;
  status: TaskStatus;
  created: Date;
  enqueued: Date | null;
  started: Date | null;
  ended: Date | null;
  workerName: string | null;
  /** When a scheduled job (a later run, a retry after its backoff) runs next; null for the others. */
  runsAt: Date | null;
  /** Place in the queue of a queued job. */
  position: number | null;
  attemptsMade: number;
  attempts: number;
  /** The error log of a failed job: each failed run's message and stack. */
  errors: string[];
  result: unknown;
  timeoutSeconds: number;
}

/** A queue's counts, as NetBox's background queues show them. */
export interface QueueStats {
  name: string;
  queued: number;
  started: number;
  finished: number;
  failed: number;
  scheduled: number;
  deferred: number;
  oldestQueued: Date | null;
  workers: number;
}

/** A process working the queue. */
export interface WorkerState {
  name: string;
  state: 'idle' | 'busy';
  birth: Date;
  queues: string[];
  pid: number;
  hostname: string;
  successful: number;
  failed: number;
  /** Seconds spent in jobs. */
  workingTime: number;
}

/**
 * The background queue: bull on Redis, or a table in PostgreSQL without Redis. Every process registers the handlers;
 * only those that `work` (the server unless RUN_JOBS is off, `manage worker`) run jobs. Each attempt is counted when
 * it starts, so one whose process dies counts too: a job that kills every process running it still ends.
 */
export interface QueuePort {
  readonly kind: 'redis' | 'postgresql';
  /** The queue's name, as NetBox's background queues list it. */
  readonly name: string;
  /** Where the jobs are, in words for the background tasks page. */
  readonly description: string;
  /** The Redis the queue is on, which processes sharing it share other state through (metrics); none in process. */
  readonly redis?: Redis;
  handle(name: string, handler: JobHandler, abandoned?: AbandonedHandler): void;
  enqueue(name: string, data: unknown, options?: EnqueueOptions): Promise<void>;
  /** Several jobs of one kind in one round trip. */
  enqueueAll(name: string, jobs: { data: unknown; options?: EnqueueOptions }[]): Promise<void>;
  /** Starts running jobs in this process, `concurrency` at once. */
  work(concurrency: number): Promise<void>;
  ping(): Promise<boolean>;
  /** Stops taking jobs, lets those under way finish, and closes. */
  close(): Promise<void>;

  tasks(statuses: TaskStatus[]): Promise<Task[]>;
  task(id: string): Promise<Task | undefined>;
  stats(): Promise<QueueStats>;
  workers(): Promise<WorkerState[]>;
  /** A failed job back to the queue for one more run; false when it is not failed. */
  requeue(id: string): Promise<boolean>;
  /** A scheduled (retry-delayed) job to the queue now; false when it is not scheduled. */
  promote(id: string): Promise<boolean>;
  /** Stops a started job (it ends failed); false when it is not started. */
  stop(id: string): Promise<boolean>;
  remove(id: string): Promise<boolean>;
}

/** The folder the server runs in, as stack traces name it: the error log shows paths below it, not where it is installed. */
const ROOT = `${process.cwd()}/`;

/** `text` with the installation's paths made relative to it (`plugins/extras/webhooks/deliver.ts:12`): no local path is shown. */
export function withoutPaths(text: string): string {
  return text.split(`file://${ROOT}`).join('').split(ROOT).join('');
}

/** What a job's error log keeps of a failure: its stack, without local paths. */
export function errorLog(err: unknown): string {
  return withoutPaths(err instanceof Error ? err.stack ?? `${err.name}: ${err.message}` : String(err));
}
