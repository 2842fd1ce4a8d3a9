import { randomUUID } from 'node:crypto';
import { errorLog, type EnqueueOptions, type JobHandler, type QueuePort, type QueueStats, type Task, type TaskStatus, type WorkerState } from './port.js';
import { WorkerTally } from './workers.js';

/** Finished jobs kept for the background tasks list. */
const KEEP_FINISHED = 1000;
/** The longest a Node timer waits. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Entry {
  task: Task;
  backoffMs: number;
  timer?: NodeJS.Timeout;
}

/**
 * Jobs in this process's memory, with bull's semantics (unique ids, attempts, exponential backoff): for a server
 * without Redis. What must survive a restart is durable elsewhere (webhook deliveries are rows in PostgreSQL and
 * are enqueued again at start).
 */
export class InProcessQueue implements QueuePort {
  readonly kind = 'in-process';
  readonly name = 'default';
  private readonly handlers = new Map<string, JobHandler>();
  private readonly entries = new Map<string, Entry>();
  private readonly running = new Set<Promise<void>>();
  private tally?: WorkerTally;
  private concurrency = 0;
  private closing = false;

  handle(name: string, handler: JobHandler): void {
    this.handlers.set(name, handler);
  }

  async enqueue(name: string, data: unknown, options: EnqueueOptions = {}): Promise<void> {
    const id = options.id ?? randomUUID();
    if (this.entries.has(id)) return;
    const now = new Date();
    const task: Task = {
      id, name, description: options.description ?? name, queue: this.name, data, status: 'queued', created: now, enqueued: now,
      started: null, ended: null, workerName: null, position: null, attemptsMade: 0, attempts: Math.max(1, options.attempts ?? 1),
      errors: [], result: null, timeoutSeconds: 0,
    };
    const entry: Entry = { task, backoffMs: options.backoffMs ?? 0 };
    this.entries.set(id, entry);
    if (options.delayMs && options.delayMs > 0) this.delay(entry, options.delayMs);
    else this.pump();
  }

  async enqueueAll(name: string, jobs: { data: unknown; options?: EnqueueOptions }[]): Promise<void> {
    for (const { data, options } of jobs) await this.enqueue(name, data, options);
  }

  async work(concurrency: number): Promise<void> {
    this.tally = new WorkerTally([this.name]);
    this.concurrency = concurrency;
    this.pump();
  }

  /** Starts queued jobs, oldest first, while there is room. */
  private pump(): void {
    if (!this.tally || this.closing) return;
    for (const entry of this.entries.values()) {
      if (this.running.size >= this.concurrency) return;
      if (entry.task.status !== 'queued') continue;
      const run = this.run(entry);
      this.running.add(run);
      void run.finally(() => {
        this.running.delete(run);
        this.pump();
      });
    }
  }

  private async run(entry: Entry): Promise<void> {
    const { task } = entry;
    const tally = this.tally!;
    task.status = 'started';
    task.started = new Date();
    task.workerName = tally.name;
    tally.started(task.id);
    const attempt = task.attemptsMade + 1;
    let failure: { error: unknown } | undefined;
    try {
      const handler = this.handlers.get(task.name);
      if (!handler) throw new Error(`No handler for job ${task.name}`);
      await handler(task.data, { attempt, attempts: task.attempts, final: attempt >= task.attempts });
    } catch (error) {
      failure = { error };
    }
    // A job stopped while it ran ends as stopped, whatever its handler did.
    const stopped = (task.status as TaskStatus) === 'stopped';
    tally.ended(task.id, !failure && !stopped);
    task.ended = new Date();
    task.workerName = null;
    if (stopped) return;
    if (!failure) {
      task.status = 'finished';
      this.prune();
      return;
    }
    task.attemptsMade = attempt;
    task.errors.push(errorLog(failure.error));
    if (attempt < task.attempts) this.delay(entry, entry.backoffMs * 2 ** (attempt - 1));
    else task.status = 'failed';
  }

  /** Scheduled: back to the queue after `ms` (in steps a timer can wait: a 30-day interval is longer). */
  private delay(entry: Entry, ms: number): void {
    entry.task.status = 'scheduled';
    const due = Date.now() + ms;
    const wait = (left: number) => {
      entry.timer = setTimeout(() => (Date.now() < due ? wait(due - Date.now()) : this.release(entry)), Math.min(Math.max(left, 0), MAX_TIMER_MS));
      entry.timer.unref();
    };
    wait(ms);
  }

  private release(entry: Entry): void {
    clearTimeout(entry.timer);
    entry.task.status = 'queued';
    entry.task.enqueued = new Date();
    this.pump();
  }

  private prune(): void {
    const finished = [...this.entries.values()].filter((e) => e.task.status === 'finished');
    for (const entry of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.entries.delete(entry.task.id);
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const entry of this.entries.values()) clearTimeout(entry.timer);
    await Promise.all(this.running);
  }

  async tasks(statuses: TaskStatus[]): Promise<Task[]> {
    const all = [...this.entries.values()].map((e) => e.task);
    return statuses.flatMap((status) =>
      all.filter((t) => t.status === status).map((t, n) => ({ ...t, position: status === 'queued' ? n : null })),
    );
  }

  async task(id: string): Promise<Task | undefined> {
    return this.entries.get(id)?.task;
  }

  async stats(): Promise<QueueStats> {
    const all = [...this.entries.values()].map((e) => e.task);
    const count = (status: TaskStatus) => all.filter((t) => t.status === status).length;
    const oldest = all.find((t) => t.status === 'queued');
    return {
      name: this.name, queued: count('queued'), started: count('started'), finished: count('finished'), failed: count('failed'),
      scheduled: count('scheduled'), deferred: count('deferred'), oldestQueued: oldest?.enqueued ?? null, workers: this.tally ? 1 : 0,
    };
  }

  async workers(): Promise<WorkerState[]> {
    if (!this.tally) return [];
    const { current: _, ...state } = this.tally.state();
    return [state];
  }

  async requeue(id: string): Promise<boolean> {
    const entry = this.entries.get(id);
    if (entry?.task.status !== 'failed') return false;
    this.release(entry);
    return true;
  }

  async promote(id: string): Promise<boolean> {
    const entry = this.entries.get(id);
    if (entry?.task.status !== 'scheduled') return false;
    this.release(entry);
    return true;
  }

  async stop(id: string): Promise<boolean> {
    const entry = this.entries.get(id);
    if (entry?.task.status !== 'started') return false;
    entry.task.status = 'stopped';
    entry.task.errors.push('Stopped by a user');
    return true;
  }

  async remove(id: string): Promise<boolean> {
    const entry = this.entries.get(id);
    if (!entry) return false;
    clearTimeout(entry.timer);
    return this.entries.delete(id);
  }
}
