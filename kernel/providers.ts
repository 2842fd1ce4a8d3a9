import { BullQueue, PostgresQueue } from '@patchbay/queue';
import type { Settings } from './config/settings.js';
import type { Database } from './db/database.js';
import type { RowCounts } from './db/row-counts.js';
import { EventOutbox } from './events/outbox.js';
import { ModelWatch } from './events/watch.js';
import type { Logger } from './base/log.js';
import { changeMetrics, databaseMetrics } from './metrics/database.js';
import { queueMetrics } from './metrics/queue.js';
import { Metrics } from './metrics/registry.js';
import { FilterSets } from './model/filter-sets.js';
import type { ModelRegistry } from './model/registry.js';
import type { ServiceFactory, ServiceRegistry } from './plugins/services.js';
import { Reader } from './read/reader.js';
import { TemplateRenderer } from './render/renderer.js';
import { RequestLoad } from './http/request-load.js';
import { Services, serviceToken, type ServiceToken } from './services.js';
import type { ChangeHook } from './write/changes.js';
import { WriteRunner } from './write/writer.js';

/** The kernel's own parts by token: the public services are views of some of them (`events` of the outbox). */
export const Parts = {
  metrics: serviceToken<Metrics>('kernel.metrics'),
  outbox: serviceToken<EventOutbox>('kernel.outbox'),
  requests: serviceToken<RequestLoad>('kernel.requests'),
  watch: serviceToken<ModelWatch>('kernel.watch'),
  filters: serviceToken<FilterSets>('kernel.filters'),
  reads: serviceToken<Reader>('kernel.reads'),
  writes: serviceToken<WriteRunner>('kernel.writes'),
  templates: serviceToken<TemplateRenderer>('kernel.templates'),
  /** The write path's change hooks (the plugins' `changes`), filled as plugins are set up. */
  changeHooks: serviceToken<ChangeHook[]>('kernel.change_hooks'),
};

/** The type a token stands for. */
export type Provided<K> = K extends ServiceToken<infer T> ? T : never;
/** The kernel's services whose default provider a server's options may replace (`{ queue: (services) => myQueue }`). */
export type ServiceOverrides = { [K in 'queue' | 'clock']?: ServiceFactory<Provided<(typeof Services)[K]>> };

interface Provider<T> {
  token: ServiceToken<T>;
  factory: ServiceFactory<T>;
}
const provider = <T>(token: ServiceToken<T>, factory: ServiceFactory<T>): Provider<T> => ({ token, factory });

export interface ProviderInputs {
  settings: Settings;
  registry: ModelRegistry;
  log: Logger;
  db: Database;
  rowCounts: RowCounts;
  /** The Redis the queue runs on, if any (REDIS_URL or the embedded one). */
  redisUrl?: string;
}

/**
 * The kernel's default providers, each built once on first use from the others: what `createServer` registers in
 * the container before the plugins add theirs. `overrides` replace the defaults they name.
 */
export function kernelProviders({ settings, registry, log, db, rowCounts, redisUrl }: ProviderInputs, overrides: ServiceOverrides = {}): Provider<unknown>[] {
  const metricsOn = settings.METRICS_ENABLED;
  return [
    provider(Services.settings, () => settings),
    provider(Services.registry, () => registry),
    provider(Services.log, () => log),
    provider(Services.db, () => db.knex),
    provider(Services.clock, overrides.clock ?? (() => ({ now: () => Date.now() }))),
    provider(Services.queue, overrides.queue ?? (() => redisUrl
      ? new BullQueue({ url: redisUrl, prefix: settings.REDIS_PREFIX, lockSeconds: settings.JOB_LOCK_SECONDS })
      : new PostgresQueue({ knex: db.backgroundKnex, log, lockSeconds: settings.JOB_LOCK_SECONDS }))),
    provider(Parts.metrics, (s) => {
      const metrics = new Metrics(metricsOn);
      if (metricsOn) {
        databaseMetrics(metrics, db);
        queueMetrics(metrics, s.get(Services.queue));
      }
      return metrics;
    }),
    provider(Parts.outbox, () => new EventOutbox(db.knex, log)),
    provider(Parts.requests, () => new RequestLoad((err) => log.error(`counting requests failed: ${err instanceof Error ? err.message : String(err)}`))),
    provider(Parts.watch, () => new ModelWatch(log)),
    provider(Parts.filters, () => new FilterSets(registry)),
    provider(Parts.reads, () => new Reader(db.knex, registry, rowCounts)),
    provider(Parts.changeHooks, () => []),
    provider(Parts.writes, (s) => new WriteRunner(db.knex, {
      registry, settings, outbox: s.get(Parts.outbox), watch: s.get(Parts.watch), changeHooks: s.get(Parts.changeHooks),
      committedChanges: metricsOn ? changeMetrics(s.get(Parts.metrics)) : undefined,
    })),
    provider(Parts.templates, (s) => new TemplateRenderer({ knex: db.knex, registry, settings, log }, s.get(Parts.metrics))),
    provider(Services.events, (s) => s.get(Parts.outbox)),
    provider(Services.requests, (s) => s.get(Parts.requests)),
    provider(Services.metrics, (s) => s.get(Parts.metrics)),
    provider(Services.render, (s) => s.get(Parts.templates)),
  ];
}

/** Registers the providers in the server's container. */
export function registerProviders(services: ServiceRegistry, providers: Provider<unknown>[]): void {
  for (const { token, factory } of providers) services.add(token, factory);
}
