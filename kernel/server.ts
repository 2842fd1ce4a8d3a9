import 'reflect-metadata';
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { Express, Request } from 'express';
import { container as rootContainer } from 'tsyringe';
import { bootstrap, type BootOptions } from './boot.js';
import type { Settings } from './config/settings.js';
import type { Database } from './db/database.js';
import { Access } from './auth/access.js';
import type { AuthUser } from './auth/principal.js';
import { TokenCache } from './auth/token-cache.js';
import type { Lifecycle } from './http/health.js';
import { baseUrl } from './http/request.js';
import { buildApp } from './app/assemble.js';
import { lazily } from './base/collections.js';
import type { Logger } from './base/log.js';
import type { ModelRegistry } from './model/registry.js';
import type { Plugin, PluginContext } from './plugin.js';
import { ServiceRegistry } from './plugins/services.js';
import { Parts, kernelProviders, registerProviders, type ServiceOverrides } from './providers.js';

export type { ServiceOverrides } from './providers.js';
import type { FilterSets } from './model/filter-sets.js';
import type { QueuePort } from '@patchbay/queue';
import { dataAccess, type DataAccess, type DataServices } from './plugins/data.js';
import { EmbeddedRedis } from '@patchbay/embedded';
import { SharedMetrics, clusterWorkerMetrics } from '@patchbay/cluster-metrics';
import { startRedis } from './queue/start-redis.js';
import type { TrackedJobs } from './queue/tracked.js';
import type { RestServices } from './rest/services.js';
import { Services } from './services.js';
import { SYSTEM } from './write/gate.js';
import { loadColumnParsers } from './read/column-parsers.js';

export interface ServerOptions extends BootOptions {
  /**
   * Without REDIS_URL, start (or attach to) an embedded Redis: the only or supervising process of `runserver`, and
   * `manage worker`; never a process the supervisor started, which its supervisor tells where Redis is, if anywhere.
   */
  startsRedis?: boolean;
  /** Services built otherwise than by the kernel's default providers (a test's queue, say). */
  services?: ServiceOverrides;
}

export interface PatchbayServer {
  /** The HTTP app, built on first use: a command (createtoken, say) serves nothing and skips it and its OpenAPI document. */
  readonly app: Express;
  settings: Settings;
  registry: ModelRegistry;
  /** Every model's query-string filters. */
  filters: FilterSets;
  db: Database;
  queue: QueuePort;
  log: Logger;
  /** The context a plugin's hooks receive (for its commands). */
  pluginContext(name: string): PluginContext;
  /** Every enabled plugin's context, each after the plugins it depends on. */
  plugins: readonly PluginContext[];
  /** Reads and writes as the server (CLI, jobs), with the same validation, change hooks and events as the API. */
  system: DataAccess;
  /**
   * Builds now what the first requests would otherwise build (the HTTP app, the OpenAPI document, the GraphQL schema),
   * so that a mistake in a declaration stops the start and the first clients do not wait: `runserver` calls it.
   */
  prepare(): void;
  /** Listens on HOST:PORT, has the event receivers recover and (with RUN_JOBS) runs jobs; resolves with the base URL. */
  listen(): Promise<string>;
  /** Has the event receivers recover and runs jobs, without HTTP (`manage worker`). */
  work(): Promise<void>;
  /**
   * Resolves once the work the event receivers left for after the commit of the writes answered so far is done (a
   * write's response does not wait for that): the jobs of the webhook deliveries the writes left in the outbox are
   * enqueued.
   */
  eventsTaken(): Promise<void>;
  close(): Promise<void>;
}

/** How often each process folds the row counters' deltas (each write statement adds one). */
const ROW_COUNT_FOLD_SECONDS = 30;

/** Assembles a Patchbay server: settings, plugins, database, the kernel's services (replaceable) and the HTTP app. */
export async function createServer(options: ServerOptions): Promise<PatchbayServer> {
  const { settings, log, enabled, registry, db, applied, rowCounts, closeDatabase } = await bootstrap(options);
  if (applied.length) log.info(`Applied migrations: ${applied.join(', ')}`);

  const redis = !settings.REDIS_URL && options.startsRedis ? new EmbeddedRedis(settings.DATA_DIR) : undefined;
  const redisUrl = settings.REDIS_URL ?? (await startRedis(redis, log));
  const container = rootContainer.createChildContainer();
  const services = new ServiceRegistry(container, new Map(enabled.map(({ plugin }) => [plugin.name, plugin])));
  registerProviders(services, kernelProviders({ settings, registry, log, db, rowCounts, redisUrl }, options.services));
  const kernel = services.kernelResolver;
  const queue = kernel.get(Services.queue);
  const metrics = kernel.get(Parts.metrics);
  const outbox = kernel.get(Parts.outbox);
  const watch = kernel.get(Parts.watch);
  const filters = kernel.get(Parts.filters);
  const reads = kernel.get(Parts.reads);
  const writes = kernel.get(Parts.writes);
  const templates = kernel.get(Parts.templates);
  // What reading a value selected as text back takes (GraphQL's lists read with their objects), before any request.
  await loadColumnParsers(reads, [...new Set(registry.all().map((m) => m.table))]);
  const changeHooks = kernel.get(Parts.changeHooks);
  // Every process's figures are summed by whichever server is scraped: through Redis where it runs, else (the workers
  // of one `npm start`) by their supervisor.
  const shared = settings.METRICS_ENABLED && queue.redis
    ? new SharedMetrics(queue.redis, settings.REDIS_PREFIX, metrics.registry, settings.METRICS_PUBLISH_SECONDS, log)
    : undefined;
  const processesMetrics = shared ?? (settings.METRICS_ENABLED && cluster.isWorker ? clusterWorkerMetrics(metrics.registry, log) : undefined);
  const rest: RestServices = { settings, registry, db, filters, reads, writes };
  const data: DataServices = { knex: db.knex, registry, settings, filters, reads, writes };
  // The server's own reads and writes: no user, a fresh request id per write.
  const system = dataAccess(data, { gate: SYSTEM, userId: null, actor: () => ({ userId: null, username: '', requestId: randomUUID() }), baseUrl: '' });

  // Reads and writes as a request's user, or as `user` for it: their permissions, the request's id, URLs from its host.
  const acting = (req: Request, gate: Access, username: string) =>
    dataAccess(data, {
      gate,
      userId: gate.userId,
      actor: () => ({ userId: gate.userId, username, requestId: req.requestId }),
      baseUrl: baseUrl(req),
    });
  const as = (req: Request) => acting(req, req.access, req.principal.user?.username ?? '');
  const accounts = () => kernel.get(Services.accounts);
  const asUser = (req: Request, user: AuthUser) =>
    acting(req, new Access({ user, via: 'token', writeEnabled: true }, settings, registry, db.knex, accounts()), user.username);

  const jobs: TrackedJobs = { enqueue: async (job, jobOptions) => kernel.get(Services.jobs).enqueue(job, jobOptions) };
  const contexts: { plugin: Plugin; ctx: PluginContext }[] = [];
  const everyContext: PluginContext[] = [];
  for (const { plugin, config } of enabled) {
    const ctx: PluginContext = {
      plugin, config, settings, registry, filters, queue, jobs, templates, log, system, container, db: db.knex, as, asUser, metrics,
      services: services.resolverFor(plugin.name), plugins: everyContext,
      watch: (model, callback) => watch.watch(model, callback),
    };
    contexts.push({ plugin, ctx });
    everyContext.push(ctx);
    services.provideFor(ctx);
    for (const [name, declared] of Object.entries(plugin.jobs ?? {})) {
      const job = `${plugin.name}.${name}`;
      const { run: handler, abandoned } = typeof declared === 'function' ? { run: declared, abandoned: undefined } : declared;
      // Queued directly, a run logs to the server's log; tracked, to the job's own.
      queue.handle(job, async (payload, attempt) => {
        await handler(payload, ctx, { ...attempt, log: (level, message) => log[level === 'warning' ? 'warn' : level](`${job}: ${message}`) });
      }, abandoned && ((payload, attempt) => abandoned(payload, ctx, attempt)));
    }
    if (plugin.events) {
      const hooks = plugin.events;
      outbox.add({
        wants: (model, type) => hooks.wants?.(model, type, ctx) ?? true,
        receive: (events, claim) => hooks.receive(events, claim, ctx),
        recover: () => hooks.recover?.(ctx),
      });
    }
    if (plugin.changes) {
      const onChange = plugin.changes;
      changeHooks.push((changes) => onChange(changes, ctx));
    }
  }
  // A token or user changed anywhere: this process's tokens are read again.
  const tokens = new TokenCache(settings.TOKEN_CACHE_SECONDS);
  for (const model of accounts().models) watch.watch(model, () => tokens.clear());
  for (const { plugin, ctx } of contexts) await plugin.setup?.(ctx);
  await watch.listen(db.url);
  // Every model's filters, derived now: a declaration mistake stops start-up rather than a request.
  for (const model of registry.all()) filters.of(model);

  const lifecycle: Lifecycle = { draining: false };
  const built = lazily(() => buildApp({ ...rest, queue, log, plugins: contexts, as, metrics, processesMetrics, lifecycle, tokens, accounts: accounts() }));
  const appOnce = () => built().app;

  let http: Server | undefined;
  /** Has the event receivers recover, starts the plugins' work (core's jobs and schedules), and runs jobs when `work`. */
  const start = async (work: boolean) => {
    await outbox.start(settings.OUTBOX_SWEEP_SECONDS);
    rowCounts.start(db.backgroundKnex, ROW_COUNT_FOLD_SECONDS, (err) => log.error(`row counters not folded: ${(err as Error).message}`));
    for (const { plugin, ctx } of contexts) await plugin.start?.(ctx);
    if (work) await queue.work(settings.JOB_CONCURRENCY);
    shared?.start();
  };
  return {
    get app() {
      return appOnce();
    },
    settings,
    registry,
    filters,
    db,
    queue,
    log,
    system,
    plugins: contexts.map((c) => c.ctx),
    pluginContext: (name) => {
      const found = contexts.find((c) => c.plugin.name === name);
      if (!found) throw new Error(`No enabled plugin ${name}`);
      return found.ctx;
    },
    work: () => start(true),
    prepare: () => built().prepare(),
    listen: async () => {
      const url = await new Promise<string>((ok, fail) => {
        http = createHttpServer({
          // A client has HEADERS_TIMEOUT to send its headers and REQUEST_TIMEOUT for the whole request, body
          // included: sockets trickling a header line now and then are closed (checked every second).
          headersTimeout: settings.HEADERS_TIMEOUT * 1000,
          requestTimeout: settings.REQUEST_TIMEOUT * 1000,
          connectionsCheckingInterval: 1000,
          // Idle keep-alive connections stay open longer than clients (4 s for Node's fetch) and proxies keep theirs,
          // so that it is the client that closes one, never the server while a request is on its way.
          keepAliveTimeout: 65_000,
        }, appOnce());
        kernel.get(Parts.requests).count(http);
        http.once('error', fail);
        http.listen(settings.PORT, settings.HOST, () => {
          const { port } = http!.address() as { port: number };
          ok(`http://${settings.HOST}:${port}`);
        });
      });
      await start(settings.RUN_JOBS);
      return url;
    },
    eventsTaken: () => outbox.settled(),
    close: async () => {
      lifecycle.draining = true;
      if (http) {
        // No new connections; idle ones close now, busy ones once their request is answered, or after
        // SHUTDOWN_TIMEOUT whatever they are doing.
        const closed = new Promise<void>((ok) => http!.close(() => ok()));
        // A request under way when the shutdown began was answered keep-alive: its connection is closed once idle.
        const idle = setInterval(() => http!.closeIdleConnections(), 100);
        const timer = setTimeout(() => http!.closeAllConnections(), settings.SHUTDOWN_TIMEOUT * 1000);
        await closed;
        clearInterval(idle);
        clearTimeout(timer);
      }
      // Then the events of the writes just answered are handed to the queue, and the jobs under way finish.
      for (const { plugin, ctx } of contexts) await plugin.close?.(ctx);
      await shared?.close();
      await outbox.close();
      rowCounts.close();
      await watch.close();
      await queue.close();
      await redis?.stop();
      await templates.close();
      await closeDatabase();
      container.dispose();
    },
  };
}
