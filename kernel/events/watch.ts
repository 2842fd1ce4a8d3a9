import pg from 'pg';
import type { Logger } from '../log.js';
import type { Db } from '../model/types.js';

const CHANNEL = 'patchbay_models';

export type WatchCallback = () => Promise<void> | void;

/**
 * Tells plugins' in-memory caches (the event rules) that a model's objects changed: in this process once the write
 * committed, before its response; in other processes by PostgreSQL's NOTIFY, which is delivered at the commit.
 */
export class ModelWatch {
  private readonly callbacks = new Map<string, WatchCallback[]>();
  private client?: pg.Client;

  constructor(private readonly log: Logger) {}

  watch(model: string, callback: WatchCallback): void {
    this.callbacks.set(model, [...(this.callbacks.get(model) ?? []), callback]);
  }

  watched(model: string): boolean {
    return this.callbacks.has(model);
  }

  /** Inside the write's transaction: the notice other processes receive when it commits. */
  async announce(db: Db, models: Iterable<string>): Promise<void> {
    for (const model of models) await db.raw('select pg_notify(?, ?)', [CHANNEL, model]);
  }

  /** After this process's commit. */
  async changed(models: Iterable<string>): Promise<void> {
    for (const model of models) for (const callback of this.callbacks.get(model) ?? []) await callback();
  }

  /** Listens for other processes' notices on a connection of its own (only when something is watched). */
  async listen(url: string): Promise<void> {
    if (!this.callbacks.size || this.client) return;
    const client = new pg.Client({ connectionString: url });
    client.on('error', (err) => this.log.warn(`model watch: ${err.message}`));
    client.on('notification', (msg) => {
      void this.changed([msg.payload ?? '']).catch((err: Error) => this.log.error(`model watch: ${err.message}`));
    });
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    this.client = client;
  }

  async close(): Promise<void> {
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
