import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Logger } from '../log.js';
import type { Metrics } from './registry.js';
import { withinWait } from './wait.js';

/** A registry's metrics as `getMetricsAsJSON()` gives them (prom-client's typings say `type` is a number; it is the name). */
type Snapshot = { name: string; type: string }[];

/** A process not heard from for this many publishing intervals has ended: its counts join the retired ones. */
const STALE_INTERVALS = 3;

/**
 * The metrics of every process of a deployment (servers, `manage worker`s, on any machine) sharing a Redis and
 * REDIS_PREFIX, so that /metrics of whichever server a scrape reaches reports the sum of them all. Each process
 * publishes its snapshot every few seconds. Counters must never go down when a process ends, or Prometheus would
 * read a reset: the counters and histograms of a process that closed, or stopped publishing, are folded into a
 * retired total, under a lock, in one transaction with its removal. Its gauges (memory, event loop) leave with it.
 */
export class SharedMetrics {
  private readonly instance = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly metrics: Metrics,
    private readonly intervalSeconds: number,
    private readonly log: Logger,
  ) {
    this.keys = { live: `${prefix}:metrics:live`, seen: `${prefix}:metrics:seen`, retired: `${prefix}:metrics:retired`, lock: `${prefix}:metrics:lock` };
  }

  private readonly keys: { live: string; seen: string; retired: string; lock: string };

  start(): void {
    const publish = () => this.publish().catch((err: unknown) => this.log.warn(`metrics: cannot publish to Redis (${(err as Error).message})`));
    void publish();
    this.timer = setInterval(publish, this.intervalSeconds * 1000);
    this.timer.unref();
  }

  private async publish(): Promise<void> {
    const snapshot = JSON.stringify(await this.metrics.registry.getMetricsAsJSON());
    await this.redis.multi().hset(this.keys.live, this.instance, snapshot).zadd(this.keys.seen, Date.now(), this.instance).exec();
  }

  /** This process's metrics summed with every other live process's and the retired totals. */
  async aggregate(): Promise<Registry> {
    const own = (await this.metrics.registry.getMetricsAsJSON()) as unknown as Snapshot;
    const others: Snapshot[] = [];
    try {
      const stale = Date.now() - STALE_INTERVALS * this.intervalSeconds * 1000;
      await withinWait(this.redis.zrangebyscore(this.keys.seen, 0, stale).then((instances) => this.retire(instances)));
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
   * transaction, by one process at a time (another holding the lock does it; until then they count as live).
   */
  private async retire(instances: string[]): Promise<void> {
    if (!instances.length) return;
    const token = randomUUID();
    if ((await this.redis.set(this.keys.lock, token, 'PX', 5000, 'NX')) !== 'OK') return;
    try {
      const texts = await this.redis.hmget(this.keys.live, ...instances);
      const retired = await this.redis.get(this.keys.retired);
      const snapshots = [retired, ...texts].filter((t): t is string => !!t).map((t) => JSON.parse(t) as Snapshot);
      const kept = snapshots.map((s) => s.filter((m) => m.type === 'counter' || m.type === 'histogram'));
      const total = await AggregatorRegistry.aggregate(kept).getMetricsAsJSON();
      await this.redis.multi().set(this.keys.retired, JSON.stringify(total)).hdel(this.keys.live, ...instances).zrem(this.keys.seen, ...instances).exec();
    } finally {
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
  }
}
