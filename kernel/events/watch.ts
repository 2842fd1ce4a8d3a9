import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../base/log.js';
import type { Db } from '../base/types.js';
import { appendTo } from '../base/collections.js';

const CHANNEL = 'patchbay_models';

export type WatchCallback = () => Promise<void> | void;

/**
 * Tells plugins' in-memory caches (the event rules) that a model's objects changed: in this process once the write
 * committed, before its response; in other processes by PostgreSQL's NOTIFY, which is delivered at the commit.
 */
export class ModelWatch {
  private readonly callbacks = new Map<string, WatchCallback[]>();
  private client?: pg.Client;
  private timer?: NodeJS.Timeout;
  private closed = false;
  /** Signs this process's notices, so that it does not reload again on hearing its own commit. */
  private readonly origin = randomUUID();

  constructor(private readonly log: Logger) {}

  watch(model: string, callback: WatchCallback): void {
    appendTo(this.callbacks, model, callback);
  }

  watched(model: string): boolean {
    return this.callbacks.has(model);
  }

  /** Inside the write's transaction: the notice other processes receive when it commits. */
  async announce(db: Db, models: Iterable<string>): Promise<void> {
    for (const model of models) await db.raw('select pg_notify(?, ?)', [CHANNEL, `${this.origin} ${model}`]);
  }

  /** After this process's commit. */
  async changed(models: Iterable<string>): Promise<void> {
    for (const model of models) for (const callback of this.callbacks.get(model) ?? []) await callback();
  }

  /**
   * Listens for other processes' notices on a connection of its own (only when something is watched). A lost
   * connection (PostgreSQL restarted, the network dropped) is opened again, backing off up to 30 s; then every
   * cache reloads, since the notices sent meanwhile were lost.
   */
  async listen(url: string): Promise<void> {
    if (!this.callbacks.size || this.client || this.closed) return;
    const client = new pg.Client({ connectionString: url });
    // Until it listens, a failure is the caller's (connect rejects); after, it is this client's to recover from, once.
    const reconnect = (err?: Error) => {
      if (this.client !== client || this.closed) return;
      this.client = undefined;
      this.log.warn(`model watch: the connection was lost${err ? ` (${err.message})` : ''}; listening again shortly`);
      void client.end().catch(() => undefined);
      this.retry(url, 1000);
    };
    client.on('error', reconnect);
    client.on('end', () => reconnect());
    client.on('notification', (msg) => {
      const [origin, model] = (msg.payload ?? '').split(' ');
      if (origin === this.origin || !model) return;
      void this.changed([model]).catch((err: Error) => this.log.error(`model watch: ${err.message}`));
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
    } catch (err) {
      void client.end().catch(() => undefined);
      throw err;
    }
    this.client = client;
  }

  private retry(url: string, delayMs: number): void {
    this.timer = setTimeout(async () => {
      try {
        await this.listen(url);
        this.log.info('model watch: listening again');
        await this.changed(this.callbacks.keys());
      } catch {
        this.retry(url, Math.min(delayMs * 2, 30_000));
      }
    }, delayMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
