import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { withinWait } from '@patchbay/guards';
import type { MetricsLog, ProcessesMetrics, Snapshot } from './types.js';

/**
 * A process not heard from for this many publishing intervals (and at least STALE_MS) has ended: its counts join
 * the retired ones. A process held up longer (its event loop blocked) comes back as a new one, from zero.
 */
const STALE_INTERVALS = 3;
const STALE_MS = 30_000;
/** How long the ids of retired processes are kept, so that a late publish of one is refused. */
const RETIRED_IDS_MS = 86_400_000;

/** Publishes a process's snapshot unless it was retired (1), or refuses (0): its counts are in the retired total already. */
const PUBLISH = `if redis.call('zscore', KEYS[3], ARGV[1]) then return 0 end
redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
redis.call('zadd', KEYS[2], ARGV[3], ARGV[1])
return 1`;

const newInstance = () => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * The metrics of every process of a deployment (servers and background workers, on any machine) sharing a Redis and a
 * key prefix, so that /metrics of whichever server a scrape reaches reports the sum of them all. Each process
 * publishes its snapshot every few seconds. Counters must never go down when a process ends, or Prometheus would
 * read a reset: the counters and histograms of a process that closed, or stopped publishing, are folded into a
 * retired total, under a lock, in one transaction with its removal (which any publish meanwhile makes it try
 * again). Its gauges (memory, event loop) leave with it. The connection is the metrics' own (a duplicate of the one
 * given): WATCH must not reach the transactions of whatever else uses that one.
 */
export class SharedMetrics implements ProcessesMetrics {
  private instance = newInstance();
  private timer?: NodeJS.Timeout;
  private failing = false;
  private readonly redis: Redis;
  private readonly keys: { live: string; seen: string; retired: string; retiredIds: string; lock: string };

  constructor(
    queueRedis: Redis,
    prefix: string,
    private readonly registry: Registry,
    private readonly intervalSeconds: number,
    private readonly log: MetricsLog,
  ) {
    this.redis = queueRedis.duplicate();
    // Failures surface in the log, through publish and scrape; without a listener ioredis would report them loudly.
    this.redis.on('error', () => undefined);
    const key = (name: string) => `${prefix}:metrics:${name}`;
    this.keys = { live: key('live'), seen: key('seen'), retired: key('retired'), retiredIds: key('retired-ids'), lock: key('lock') };
  }

  start(): void {
    const publish = () =>
      this.publish().then(
        () => {
          if (this.failing) this.log.info('metrics: publishing to Redis again');
          this.failing = false;
        },
        (err: unknown) => {
          // Once per outage, not every interval.
          if (!this.failing) this.log.warn(`metrics: cannot publish to Redis (${(err as Error).message})`);
          this.failing = true;
        },
      );
    void publish();
    this.timer = setInterval(publish, this.intervalSeconds * 1000);
    this.timer.unref();
  }

  private async publish(): Promise<void> {
    const snapshot = JSON.stringify(await this.registry.getMetricsAsJSON());
    const keys = [this.keys.live, this.keys.seen, this.keys.retiredIds];
    if ((await this.redis.eval(PUBLISH, keys.length, ...keys, this.instance, snapshot, Date.now())) === 1) return;
    // Retired while it was held up: what it had published is counted; it goes on as a new process from zero.
    this.log.warn(`metrics: this process (${this.instance}) was taken for ended and retired; it goes on counting from zero`);
    this.registry.resetMetrics();
    this.instance = newInstance();
    await this.publish();
  }

  /** This process's metrics summed with every other live process's and the retired totals. */
  async aggregate(): Promise<Registry> {
    const own = (await this.registry.getMetricsAsJSON()) as unknown as Snapshot;
    const others: Snapshot[] = [];
    try {
      // Published first: a later scrape answered by another process then reads this process's figures as this
      // scrape shows them or larger, so that a sum never falls between scrapes (they reach the processes in turn).
      await withinWait(this.publish());
      const stale = Date.now() - Math.max(STALE_MS, STALE_INTERVALS * this.intervalSeconds * 1000);
      // Never this process: it is the one answering.
      const ended = (instances: string[]) => this.retire(instances.filter((id) => id !== this.instance));
      await withinWait(this.redis.zrangebyscore(this.keys.seen, 0, stale).then(ended));
      const [live, retired] = await withinWait(Promise.all([this.redis.hgetall(this.keys.live), this.redis.get(this.keys.retired)]));
      for (const [instance, text] of Object.entries(live)) if (instance !== this.instance) others.push(JSON.parse(text) as Snapshot);
      if (retired) others.push(JSON.parse(retired) as Snapshot);
    } catch (err) {
      // Without Redis, this process's own figures are still worth a scrape.
      this.log.warn(`metrics: cannot read other processes' metrics from Redis (${(err as Error).message})`);
    }
    return AggregatorRegistry.aggregate([own, ...others]);
  }

  /**
   * Folds the counters and histograms of `instances` into the retired totals and forgets the instances, in one
   * transaction, by one process at a time (another holding the lock does it; until then they count as live). A
   * publish between the reading and the transaction aborts it (WATCH), and it is tried again with what is new.
   */
  private async retire(instances: string[]): Promise<void> {
    if (!instances.length) return;
    const token = randomUUID();
    if ((await this.redis.set(this.keys.lock, token, 'PX', 5000, 'NX')) !== 'OK') return;
    try {
      for (let attempt = 0; attempt < 5; attempt++) {
        await this.redis.watch(this.keys.live);
        const texts = await this.redis.hmget(this.keys.live, ...instances);
        const retired = await this.redis.get(this.keys.retired);
        const snapshots = [retired, ...texts].filter((t): t is string => !!t).map((t) => JSON.parse(t) as Snapshot);
        const kept = snapshots.map((s) => s.filter((m) => m.type === 'counter' || m.type === 'histogram'));
        const total = await AggregatorRegistry.aggregate(kept).getMetricsAsJSON();
        const now = Date.now();
        const done = await this.redis.multi()
          .set(this.keys.retired, JSON.stringify(total))
          .hdel(this.keys.live, ...instances)
          .zrem(this.keys.seen, ...instances)
          .zadd(this.keys.retiredIds, ...instances.flatMap((id) => [now, id]))
          .zremrangebyscore(this.keys.retiredIds, 0, now - RETIRED_IDS_MS)
          .exec();
        if (done) return;
      }
    } finally {
      await this.redis.unwatch();
      // Only our own lock: it may have expired and been taken by another process meanwhile.
      await this.redis.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, this.keys.lock, token);
    }
  }

  /** Publishes a last time and retires this process, so that its counts stay in the totals. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    try {
      await withinWait(this.publish().then(() => this.retire([this.instance])));
    } catch (err) {
      // Whoever scrapes next retires it once it is stale.
      this.log.warn(`metrics: cannot retire this process's metrics in Redis (${(err as Error).message})`);
    }
    this.redis.disconnect();
  }
}
