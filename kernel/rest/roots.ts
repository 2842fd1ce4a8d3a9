import { hostname } from 'node:os';
import express, { type Router } from 'express';
import { requireStaff } from '../auth/access.js';
import type { Database } from '../db/database.js';
import type { Plugin } from '../plugin.js';
import type { ModelRegistry } from '../model/registry.js';
import type { QueuePort } from '@patchbay/queue';
import type { RecordedRoute } from '../openapi/routes.js';
import { API_VERSION, PATCHBAY_VERSION } from '../base/version.js';
import { baseUrl } from '../http/request.js';
import { send } from '../http/respond.js';
import { appendTo } from '../base/collections.js';
import { BUILTIN_PATH, hasApiRoot } from '../model/paths.js';

const sorted = (entries: [string, string][]) => Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));


export interface RootDeps {
  plugins: Plugin[];
  registry: ModelRegistry;
  db: Database;
  queue: QueuePort;
  /** Each plugin's extra routes by plugin name (filled as they are mounted): its list endpoints are in its root. */
  routes: ReadonlyMap<string, RecordedRoute[]>;
}

/**
 * Endpoint listing of one plugin: `{ "<path>": "<absolute list URL>" }`: its models, the aliases of other plugins'
 * models under its base path, and its own list routes (`GET /background-tasks/`).
 */
function endpointsOf(plugin: Plugin, plugins: Plugin[], registry: ModelRegistry, routes: RecordedRoute[], base: string): Record<string, string> {
  const entries: [string, string][] = (plugin.models ?? []).filter((m) => m.served).map((m) => [m.path, `${base}${registry.apiPath(m)}`]);
  for (const alias of plugins.flatMap((p) => p.aliases ?? [])) {
    if (alias.path.startsWith(plugin.basePath)) entries.push([alias.path.slice(plugin.basePath.length, -1), `${base}${alias.path}`]);
  }
  for (const route of routes) {
    const [, path] = /^\/([a-z0-9_-]+)\/$/.exec(route.path) ?? [];
    if (route.method === 'get' && path) entries.push([path, `${base}${plugin.basePath}${path}/`]);
  }
  return sorted(entries);
}

/** `/api/`, `/api/plugins/`, each app's root and `/api/status/`. */
export function rootRouter({ plugins, registry, db, queue, routes }: RootDeps): Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  const builtins = plugins.filter((p) => BUILTIN_PATH.test(p.basePath));
  // A built-in app serving nothing below its base path (the browsable API's pages) has no API root.
  const served = plugins.filter(hasApiRoot);
  const thirdParty = plugins.filter((p) => !BUILTIN_PATH.test(p.basePath));

  // Apps that only hold aliases (`/api/core/`) list them like any app.
  const aliasApps = new Map<string, [string, string][]>();
  for (const alias of plugins.flatMap((p) => p.aliases ?? [])) {
    const [, app, path] = /^(\/api\/[a-z0-9_-]+\/)([a-z0-9_-]+)\/$/.exec(alias.path) ?? [];
    if (!app || plugins.some((p) => p.basePath === app)) continue;
    appendTo(aliasApps, app, [path, alias.path]);
  }
  for (const [app, entries] of aliasApps) {
    router.get(app, (req, res) => send(req, res, 200, sorted(entries.map(([k, v]) => [k, `${baseUrl(req)}${v}`])), app));
  }

  router.get('/api/', (req, res) => {
    const base = baseUrl(req);
    const apps: [string, string][] = builtins.filter(hasApiRoot).map((p) => [BUILTIN_PATH.exec(p.basePath)![1], `${base}${p.basePath}`]);
    for (const app of aliasApps.keys()) apps.push([BUILTIN_PATH.exec(app)![1], `${base}${app}`]);
    apps.push(['plugins', `${base}/api/plugins/`], ['status', `${base}/api/status/`]);
    send(req, res, 200, sorted(apps), 'API Root');
  });

  // As NetBox's: the installed plugins first, then each plugin's API root in the order PLUGINS gives.
  router.get('/api/plugins/', (req, res) => {
    const base = baseUrl(req);
    const entries = [['installed-plugins', `${base}/api/plugins/installed-plugins/`], ...thirdParty.map((p) => [p.name, `${base}${p.basePath}`])];
    send(req, res, 200, Object.fromEntries(entries), 'Plugins');
  });

  // What pynetbox's `nb.plugins.installed_plugins()` reads; staff only, as NetBox's.
  router.get('/api/plugins/installed-plugins/', (req, res) => {
    requireStaff(req);
    send(req, res, 200, thirdParty.map((p) => ({
      name: p.label ?? p.name, package: p.name, author: p.author ?? '', author_email: p.authorEmail ?? '',
      description: p.description ?? '', version: p.version, release_track: p.releaseTrack ?? '',
    })), 'Installed Plugins');
  });

  for (const plugin of served) {
    router.get(plugin.basePath, (req, res) => {
      send(req, res, 200, endpointsOf(plugin, plugins, registry, routes.get(plugin.name) ?? [], baseUrl(req)), plugin.label ?? plugin.name);
    });
  }

  router.get('/api/status/', async (req, res) => {
    const [dbUp, pinged] = await Promise.all([db.ping(), queue.ping()]);
    // A Redis that answered the ping may drop before the workers are read: it is down then.
    const workers = pinged ? await queue.workers().then((list) => list.length, () => undefined) : undefined;
    const queueUp = workers !== undefined;
    const pending = dbUp ? await db.pendingMigrations() : [];
    // NetBox's keys (what pynetbox's `status()` and monitoring scripts read), then Patchbay's own.
    send(req, res, 200, {
      'installed-apps': sorted(builtins.map((p) => [p.name, p.version])),
      'netbox-version': API_VERSION,
      'netbox-full-version': API_VERSION,
      plugins: sorted(thirdParty.map((p) => [p.name, p.version])),
      // Processes working the queue (this server with RUN_JOBS, `manage worker`s), as the background workers list them.
      'rq-workers-running': workers ?? 0,
      'patchbay-version': PATCHBAY_VERSION,
      'api-version': API_VERSION,
      hostname: hostname(),
      'node-version': process.version,
      database: { status: dbUp ? 'ok' : 'unavailable', pending_migrations: pending.length },
      queue: { backend: queue.kind, status: queueUp ? 'ok' : 'unavailable' },
    }, 'Status');
  });

  return router;
}
