import type { Redis } from 'ioredis';
import { HttpError } from '../errors.js';

/** Redis cannot be reached: what needs the queue answers 503 at once rather than wait for it to return. */
export class QueueUnavailable extends HttpError {
  constructor() {
    super(503, { detail: 'The queue (Redis) is unavailable; try again in a few seconds.' });
  }
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

export interface EnqueueOptions {
  /** Jobs are unique by id: enqueueing an id the queue holds again is a no-op (durable work recovered at start). */
  id?: string;
  /** Runs in all, retries included (default 1). */
  attempts?: number;
  /** The first retry's delay; each next one doubles it. */
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
 * The background queue: bull on Redis, or in this process without Redis. Every process registers the handlers;
 * only those that `work` (the server unless RUN_JOBS is off, `manage worker`) run jobs.
 */
export interface QueuePort {
  readonly kind: 'redis' | 'in-process';
  /** The queue's name, as NetBox's background queues list it. */
  readonly name: string;
  /** The Redis the queue is on, which processes sharing it share other state through (metrics); none in process. */
  readonly redis?: Redis;
  handle(name: string, handler: JobHandler): void;
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

/** What a job's error log keeps of a failure. */
export function errorLog(err: unknown): string {
  return err instanceof Error ? err.stack ?? `${err.name}: ${err.message}` : String(err);
}
