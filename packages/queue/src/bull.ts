import Bull from 'bull';
import type { Redis } from 'ioredis';
import { NoAnswer, withinWait } from '@patchbay/guards';
import {
  QueueUnavailable, abandonedMessage, retryDelay, withoutPaths, type AbandonedHandler, type EnqueueOptions, type JobHandler, type QueuePort, type QueueStats,
  type RunAttempt, type Task, type TaskStatus, type WorkerState,
} from './port.js';
import { WorkerTally } from './workers.js';

/** Bull's job states for each of RQ's statuses (a retry waiting for its delay is RQ's "scheduled"). */
const STATES: Partial<Record<TaskStatus, Bull.JobStatus[]>> = {
  queued: ['waiting'],
  started: ['active'],
  finished: ['completed'],
  failed: ['failed'],
  scheduled: ['delayed'],
  deferred: ['paused'],
};
/** How long a worker's heartbeat counts (it beats every 5 s). */
const WORKER_TTL_MS = 15_000;
const STATUS_OF: Record<string, TaskStatus> = { waiting: 'queued', active: 'started', completed: 'finished', failed: 'failed', delayed: 'scheduled', paused: 'deferred' };

export interface BullOptions {
  url: string;
  /** Key prefix in Redis: servers sharing a Redis and a prefix share the queue. */
  prefix: string;
  /** How long a job's lock lasts without renewal: a worker that died gives its job back after about this. */
  lockSeconds: number;
}

/**
 * Records in a job's own hash the attempt a run starts and answers the attempt recorded before: bull counts an attempt
 * only when it fails, so a run whose process died (its lock ran out and bull ran it again) would otherwise be free.
 */
const START_ATTEMPT = `local previous = redis.call('hget', KEYS[1], 'patchbayAttempt')
redis.call('hset', KEYS[1], 'patchbayAttempt', ARGV[1])
return previous`;

/** The run of an attempt started before and never reported (its process died): counted as that attempt's failure. */
class AbandonedAttempt extends Error {
  constructor(message: string) {
    super(message);
    // The error log shows why, not where this process noticed it.
    this.stack = message;
  }
}

/** Jobs in Redis through bull: one queue (`default`, as NetBox's), jobs told apart by name. */
export class BullQueue implements QueuePort {
  readonly kind = 'redis';
  readonly name = 'default';
  readonly description = 'bull on Redis: every process sharing the Redis and REDIS_PREFIX takes jobs from it';
  private readonly queue: Bull.Queue;
  private readonly handlers = new Map<string, { run: JobHandler; abandoned?: AbandonedHandler }>();
  private tally?: WorkerTally;
  private heartbeat?: NodeJS.Timeout;
  /** Jobs this process took whose outcome bull has not recorded yet (it says `completed` or `failed` once it has). */
  private readonly unsettled = new Set<string>();
  private allSettled?: () => void;
  /**
   * Whether Redis answered since the connection last dropped (ioredis calls a connection ready once it opens, even
   * through a proxy that then drops it), and whether it ever did.
   */
  private answering = false;
  private answered = false;
  private readonly firstAnswer: Promise<void>;
  private heard?: () => void;
  private probing = false;

  constructor(private readonly options: BullOptions) {
    const lockDuration = options.lockSeconds * 1000;
    this.queue = new Bull(this.name, options.url, {
      prefix: options.prefix,
      // Finished jobs are kept a while (the background tasks show them); failed ones until requeued or deleted.
      defaultJobOptions: { removeOnComplete: 1000, removeOnFail: false },
      // A stalled job (its process died) runs again; its abandoned attempts are counted by the run (START_ATTEMPT), so
      // bull's own count of stalls must never end it first. Retries wait `retryDelay`: twice as long each time.
      settings: {
        lockDuration, lockRenewTime: lockDuration / 4, stalledInterval: lockDuration / 2, maxStalledCount: Number.MAX_SAFE_INTEGER,
        backoffStrategies: { doubling: (attemptsMade: number, _err: Error, options: { delay: number }) => retryDelay(options.delay, attemptsMade) },
      },
      // Back within 2 s of Redis (bull's own strategy waits up to 20 s between attempts).
      redis: { retryStrategy: (times: number) => Math.min(times * 100, 2000) },
    });
    this.firstAnswer = new Promise((ok) => (this.heard = ok));
    this.queue.client.on('close', () => (this.answering = false)).on('ready', () => this.probe());
    // Connection errors surface through ping(); without a listener bull would crash the process.
    this.queue.on('error', () => {});
    const settled = (job: Bull.Job) => {
      this.unsettled.delete(String(job.id));
      if (!this.unsettled.size) this.allSettled?.();
    };
    this.queue.on('completed', settled).on('failed', settled);
    // Bull (4.16) names its blocking connection without handling a failure: a close while Redis is away would
    // leave the rejection unhandled.
    const named = this.queue as unknown as { setWorkerName(): Promise<void> };
    const setWorkerName = named.setWorkerName.bind(named);
    named.setWorkerName = () => setWorkerName().catch(() => undefined);
  }

  /**
   * Fails at once while Redis is down (the connection was lost), where ioredis would hold the command in its offline
   * queue until it is back: a request answers 503 rather than hang. A first connection under way is waited for.
   */
  private async connected(): Promise<void> {
    if (this.queue.client.status === 'ready') {
      if (this.answering) return;
      // Connected but not known to answer: a probe finds out for the next request.
      this.probe();
    }
    if (!this.answered && (await withinWait(this.firstAnswer).then(() => true, () => false))) return;
    throw new QueueUnavailable();
  }

  /** Pings Redis in the background (one ping at a time); an answer makes it answering again. */
  private probe(): void {
    if (this.probing) return;
    this.probing = true;
    void this.ping().finally(() => (this.probing = false));
  }

  /**
   * A request's work with Redis, bounded: ioredis resends a command whose connection dropped on each reconnection,
   * so a Redis behind a proxy that accepts connections and drops them would hold it for good.
   */
  private async answer<T>(work: () => Promise<T>): Promise<T> {
    await this.connected();
    return withinWait(work()).catch((err: unknown) => {
      throw err instanceof NoAnswer ? new QueueUnavailable() : err;
    });
  }

  get redis(): Redis {
    return this.queue.client;
  }

  handle(name: string, handler: JobHandler, abandoned?: AbandonedHandler): void {
    this.handlers.set(name, { run: handler, abandoned });
  }

  async enqueue(name: string, data: unknown, options: EnqueueOptions = {}): Promise<void> {
    await this.enqueueAll(name, [{ data, options }]);
  }

  async enqueueAll(name: string, jobs: { data: unknown; options?: EnqueueOptions }[]): Promise<void> {
    // The outbox keeps work it could not enqueue for its next sweep: a write's response is not held back. Work
    // enqueued late, after its wait, is not enqueued twice: every job that is enqueued again has an id.
    await this.answer(() => this.queue.addBulk(
      jobs.map(({ data, options = {} }) => ({
        name,
        data: { data, description: options.description ?? name },
        opts: {
          jobId: options.id,
          attempts: Math.max(1, options.attempts ?? 1),
          delay: options.delayMs && options.delayMs > 0 ? options.delayMs : undefined,
          backoff: options.backoffMs ? { type: 'doubling', options: { delay: options.backoffMs } } : undefined,
        },
      })),
    ));
  }

  async work(concurrency: number): Promise<void> {
    const tally = (this.tally = new WorkerTally([this.name]));
    // Bounded: with Redis down, a command waits in ioredis's offline queue until it returns.
    const beat = () => withinWait(this.beat()).catch(() => undefined);
    this.heartbeat = setInterval(beat, 5000);
    this.heartbeat.unref();
    await beat();
    void this.queue.process('*', concurrency, async (job: Bull.Job) => {
      const handler = this.handlers.get(job.name);
      if (!handler) throw new Error(`No handler for job ${job.name}`);
      const id = String(job.id);
      this.unsettled.add(id);
      tally.started(id);
      void beat();
      const attempts = job.opts.attempts ?? 1;
      const run: RunAttempt = { attempt: job.attemptsMade + 1, attempts, final: job.attemptsMade + 1 >= attempts };
      const data = (job.data as { data: unknown }).data;
      try {
        const key = `${this.options.prefix}:${this.name}:${id}`;
        const previous = (await this.queue.client.eval(START_ATTEMPT, 1, key, run.attempt)) as string | null;
        if (previous === String(run.attempt)) {
          // This attempt ran before and never reported back: it fails now, as it would have, and the job's handler is
          // told so that its records say why; bull then retries it after its backoff, or fails the job.
          await handler.abandoned?.(data, run);
          throw new AbandonedAttempt(abandonedMessage(run));
        }
        await handler.run(data, run);
        tally.ended(id, true);
      } catch (err) {
        tally.ended(id, false);
        throw err;
      } finally {
        void beat();
      }
    });
  }

  private get workerKey(): string {
    return `${this.options.prefix}:${this.name}:worker:`;
  }

  /** The workers' names by their last heartbeat: listing them reads this set, never a scan of the keys. */
  private get workersKey(): string {
    return `${this.options.prefix}:${this.name}:workers`;
  }

  /** This worker's state in Redis, expiring unless renewed: a worker that died drops out of the list. */
  private async beat(): Promise<void> {
    if (!this.tally) return;
    const now = Date.now();
    await this.queue.client.multi()
      .set(this.workerKey + this.tally.name, JSON.stringify(this.tally.state()), 'PX', WORKER_TTL_MS)
      .zadd(this.workersKey, now, this.tally.name)
      .zremrangebyscore(this.workersKey, 0, now - WORKER_TTL_MS)
      .exec();
  }

  async ping(): Promise<boolean> {
    if (this.queue.client.status !== 'ready') return false;
    // A Redis that is connected but does not answer is down too.
    const up = await withinWait(this.queue.client.ping()).then((answer) => answer === 'PONG', () => false);
    if (up) {
      this.answering = this.answered = true;
      this.heard?.();
    }
    return up;
  }

  /**
   * Stops taking jobs and lets those under way finish, then closes. It all gets as long as a job's lock, after which
   * another worker would take an unfinished job anyway: against a Redis that drops its connections bull's close
   * has no bound of its own (and its own wait for the jobs can leave a failed reconnection unhandled).
   */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((ok) => (timer = setTimeout(() => ok('late'), this.options.lockSeconds * 1000)));
    const bounded = (work: Promise<unknown>) => Promise.race([work.catch(() => undefined), late]);
    if (this.tally) {
      await bounded(withinWait(this.queue.client.multi().del(this.workerKey + this.tally.name).zrem(this.workersKey, this.tally.name).exec()));
      // A local pause also ends the blocking wait for the next job.
      await bounded(this.queue.pause(true, true));
      if (this.unsettled.size) await bounded(new Promise<void>((ok) => (this.allSettled = ok)));
    }
    const closed = await bounded(this.queue.close(true));
    clearTimeout(timer);
    if (closed === 'late') for (const client of this.queue.clients) client.disconnect();
  }

  private async current(): Promise<(WorkerState & { current: string[] })[]> {
    const values = await this.answer(async () => {
      const names = await this.queue.client.zrangebyscore(this.workersKey, Date.now() - WORKER_TTL_MS, '+inf');
      return names.length ? this.queue.client.mget(...names.map((name) => this.workerKey + name)) : [];
    });
    return values.flatMap((v) => {
      if (!v) return [];
      const state = JSON.parse(v) as WorkerState & { current: string[] };
      return [{ ...state, birth: new Date(state.birth) }];
    });
  }

  async workers(): Promise<WorkerState[]> {
    return (await this.current()).map(({ current: _, ...state }) => state);
  }

  private async toTask(job: Bull.Job, status?: TaskStatus, workers?: (WorkerState & { current: string[] })[]): Promise<Task> {
    const state = status ?? STATUS_OF[await job.getState()] ?? 'queued';
    const id = String(job.id);
    const owner = state === 'started' ? (workers ?? (await this.current())).find((w) => w.current.includes(id))?.name ?? null : null;
    const data = job.data as { data: unknown; description?: string };
    const at = (ms: number | undefined) => (ms ? new Date(ms) : null);
    // A delayed job waits in a sorted set scored by its time (bull 4: milliseconds × 4096, plus a counter).
    const score = state === 'scheduled' ? await this.queue.client.zscore(this.queue.toKey('delayed'), id) : null;
    return {
      id, name: job.name, description: data.description ?? job.name, queue: this.name, data: data.data, status: state,
      created: new Date(job.timestamp), enqueued: new Date(job.timestamp), started: at(job.processedOn), ended: at(job.finishedOn),
      // Attempts started, as the PostgreSQL queue counts them (bull counts the failed ones).
      workerName: owner, runsAt: score === null ? null : new Date(Math.floor(Number(score) / 0x1000)), position: null, attemptsMade: job.attemptsMade + (state === 'finished' || state === 'started' ? 1 : 0), attempts: job.opts.attempts ?? 1,
      errors: (job.stacktrace ?? []).map(withoutPaths), result: job.returnvalue ?? null, timeoutSeconds: job.opts.timeout ? job.opts.timeout / 1000 : 0,
    };
  }

  async tasks(statuses: TaskStatus[]): Promise<Task[]> {
    const workers = await this.current();
    const found: Task[] = [];
    for (const status of statuses) {
      const states = STATES[status];
      if (!states) continue;
      const jobs = (await this.answer(() => this.queue.getJobs(states, 0, -1, true))).filter(Boolean);
      for (const [n, job] of jobs.entries()) {
        const task = await this.toTask(job, status, workers);
        if (status === 'queued') task.position = n;
        found.push(task);
      }
    }
    return found;
  }

  async task(id: string): Promise<Task | undefined> {
    return this.answer(async () => {
      const job = await this.queue.getJob(id);
      return job ? this.toTask(job) : undefined;
    });
  }

  async stats(): Promise<QueueStats> {
    const [counts, [oldest]] = await this.answer(() => Promise.all([this.queue.getJobCounts(), this.queue.getWaiting(0, 0)]));
    return {
      name: this.name, queued: counts.waiting, started: counts.active, finished: counts.completed, failed: counts.failed,
      scheduled: counts.delayed, deferred: (counts as { paused?: number }).paused ?? 0,
      oldestQueued: oldest ? new Date(oldest.timestamp) : null, workers: (await this.current()).length,
    };
  }

  /** Runs `change` on the job if it is in `state`; false if there is no such job. */
  private changeIn(id: string, state: Bull.JobStatus, change: (job: Bull.Job) => Promise<unknown>): Promise<boolean> {
    return this.answer(async () => {
      const job = await this.queue.getJob(id);
      if (!job || (await job.getState()) !== state) return false;
      await change(job);
      return true;
    });
  }

  requeue(id: string): Promise<boolean> {
    return this.changeIn(id, 'failed', (job) => job.retry());
  }

  promote(id: string): Promise<boolean> {
    return this.changeIn(id, 'delayed', (job) => job.promote());
  }

  stop(id: string): Promise<boolean> {
    return this.changeIn(id, 'active', (job) => {
      job.discard();
      // A real error, so that bull keeps its stack in the job's error log.
      return job.moveToFailed(new Error('Stopped by a user'), true);
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.answer(async () => {
      const job = await this.queue.getJob(id);
      await job?.remove();
      return Boolean(job);
    });
  }
}
