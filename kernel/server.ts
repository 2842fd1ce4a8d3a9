import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Express, Request } from 'express';
import { container as rootContainer } from 'tsyringe';
import { bootstrap, type BootOptions } from './boot.js';
import type { Settings } from './config/settings.js';
import type { Database } from './db/database.js';
import { EventBus } from './events/bus.js';
import { FilterSets } from './filters/filterset.js';
import { baseUrl } from './http/request.js';
import { buildApp } from './app/assemble.js';
import type { Logger } from './log.js';
import type { ModelRegistry } from './model/registry.js';
import type { PluginContext } from './plugin.js';
import { dataAccess, type DataAccess, type DataServices } from './plugins/data.js';
import { BullQueue } from './queue/bull.js';
import { InProcessQueue } from './queue/memory.js';
import type { QueuePort } from './queue/port.js';
import { Reader } from './read/reader.js';
import type { RestServices } from './rest/services.js';
import { Services } from './services.js';
import { TemplateRenderer } from './templates/renderer.js';
import type { ChangeHook } from './write/changes.js';
import { SYSTEM } from './write/gate.js';
import { WriteRunner } from './write/writer.js';

export interface ServerOptions extends BootOptions {
  /** The server will serve requests (runserver), not run one command. */
  serving?: boolean;
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
  /** Listens on HOST:PORT; resolves with the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** Assembles a Patchbay server: settings, plugins, database, queue and the HTTP app. */
export async function createServer(options: ServerOptions): Promise<PatchbayServer> {
  const { settings, log, enabled, registry, db, applied, closeDatabase } = await bootstrap(options);
  if (applied.length) log.info(`Applied migrations: ${applied.join(', ')}`);

  const queue: QueuePort = settings.REDIS_URL ? new BullQueue(settings.REDIS_URL) : new InProcessQueue((m) => log.warn(m));
  // A command (createtoken, say) runs no jobs worth a warning.
  if (!settings.REDIS_URL && options.serving) log.warn('REDIS_URL is not set: background jobs run in this process (not for production)');
  const bus = new EventBus((err) => log.error(`event handler failed: ${err.message}`));
  const filters = new FilterSets(registry);
  const changeHooks: ChangeHook[] = [];
  const writes = new WriteRunner(db.knex, { registry, settings, bus, changeHooks });
  const reads = new Reader(db.knex, registry);
  const services: RestServices = { settings, registry, db, filters, reads, writes };
  const data: DataServices = { knex: db.knex, registry, settings, filters, reads, writes };
  // The server's own reads and writes: no user, a fresh request id per write.
  const system = dataAccess(data, { gate: SYSTEM, userId: null, actor: () => ({ userId: null, username: '', requestId: randomUUID() }), baseUrl: '' });

  const container = rootContainer.createChildContainer();
  container.register(Services.settings, { useValue: settings });
  container.register(Services.registry, { useValue: registry });
  container.register(Services.queue, { useValue: queue });
  container.register(Services.log, { useValue: log });

  // Reads and writes as the user of a request: their permissions, the request's id, URLs from its host.
  const as = (req: Request) =>
    dataAccess(data, {
      gate: req.access,
      userId: req.access.userId,
      actor: () => ({ userId: req.access.userId, username: req.principal.user?.username ?? '', requestId: req.requestId }),
      baseUrl: baseUrl(req),
    });

  const templates = new TemplateRenderer({ knex: db.knex, registry, settings, log });
  const contexts = enabled.map(({ plugin, config }) => {
    const ctx: PluginContext = { plugin, config, settings, registry, filters, queue, templates, log, system, container, db: db.knex, as };
    for (const [name, handler] of Object.entries(plugin.jobs ?? {})) queue.handle(`${plugin.name}.${name}`, (payload) => handler(payload, ctx));
    if (plugin.events) {
      const onEvent = plugin.events;
      bus.subscribe((event) => onEvent(event, ctx));
    }
    if (plugin.changes) {
      const onChange = plugin.changes;
      changeHooks.push((changes) => onChange(changes, ctx));
    }
    return { plugin, ctx };
  });
  for (const { plugin, ctx } of contexts) await plugin.setup?.(ctx);
  // Every model's filters, derived now: a declaration mistake stops start-up rather than a request.
  for (const model of registry.all()) filters.of(model);

  let app: Express | undefined;
  const appOnce = () => (app ??= buildApp({ ...services, queue, log, plugins: contexts, as }));

  let http: Server | undefined;
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
    listen: () =>
      new Promise((ok, fail) => {
        http = appOnce().listen(settings.PORT, settings.HOST, (err?: Error) => {
          if (err) return fail(err);
          // Idle keep-alive connections stay open longer than clients (4 s for Node's fetch) and proxies keep theirs,
          // so that it is the client that closes one, never the server while a request is on its way.
          http!.keepAliveTimeout = 65_000;
          http!.headersTimeout = 66_000;
          const { port } = http!.address() as { port: number };
          ok(`http://${settings.HOST}:${port}`);
        });
      }),
    close: async () => {
      if (http) await new Promise<void>((ok) => http!.close(() => ok()));
      http?.closeAllConnections();
      await queue.close();
      await templates.close();
      await closeDatabase();
      container.dispose();
    },
  };
}
