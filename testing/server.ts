import { randomUUID } from 'node:crypto';
// Public types come from `patchbay`, so that the kit's API report names them rather than repeating them.
import type { Knex } from '@mikro-orm/knex';
import type { DataAccess, ModelRegistry, Plugin, PluginContext, QueuePort, ServiceOverrides, Settings } from 'patchbay';
import { bootstrap } from '../kernel/boot.js';
import { createServer, type PatchbayServer } from '../kernel/server.js';
import { builtinPlugins } from '../plugins/index.js';
import { createDatabase, dropDatabase, urlOf } from './databases.js';
import { grant, type Grant } from './permissions.js';
import { insertUser, type TestUser, type UserOptions } from './users.js';

/** Response bodies are asserted field by field: their shape is what a test checks, not what it assumes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;

export interface Reply<T = Body> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when the body is not JSON). */
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** The token to send; null sends none. Default: the admin's. */
  token?: string | null;
  /** Sent as is, without JSON encoding. */
  raw?: string;
  headers?: Record<string, string>;
  redirect?: RequestRedirect;
}

export interface StartOptions {
  /** Third-party plugins to enable, as PLUGINS takes them: paths (a file or a package's folder) or package names. */
  plugins?: string[];
  /** Settings over the kit's (PORT 0, LOG_LEVEL error, a fresh database); PLUGINS_CONFIG for the plugins' own. */
  settings?: Partial<Settings>;
  /** A second server on the first one's database, queue and media, with its admin: a second machine. */
  joining?: TestPatchbay;
  /** Services built otherwise than by the kernel (a queue or a clock of the test's making). */
  services?: ServiceOverrides;
  /** The built-in apps to enable (default: all of them). */
  builtins?: Plugin[];
}

/** One SQL statement the server ran. */
export interface Statement {
  sql: string;
  bindings: readonly unknown[];
}

/** What a plugin's tests reach of the running server besides its HTTP API. */
export interface RunningPatchbay {
  readonly settings: Settings;
  /** Every model: its fields, filters and paths. */
  readonly registry: ModelRegistry;
  /** Reads and writes as the server itself, with the API's validation, change log and events. */
  readonly system: DataAccess;
  /** The background queue (jobs, webhook deliveries). */
  readonly queue: QueuePort;
  /** The context plugin `name`'s hooks receive. */
  pluginContext(name: string): PluginContext;
  /** The server's connection pool, for what a test checks in SQL (an index, a row the API does not show). */
  readonly db: { readonly knex: Knex };
}

/** A running Patchbay with a superuser, and a client of its HTTP API. */
export interface TestPatchbay<S extends RunningPatchbay = RunningPatchbay> {
  /** `http://127.0.0.1:<port>`, where it listens. */
  base: string;
  server: S;
  /** A superuser, whose token requests carry by default. */
  admin: TestUser;
  /** A user with a password and a token, written straight into the database. */
  createUser(username: string, options?: UserOptions): Promise<TestUser>;
  /** A user whose only rights are `grants` (object permissions: actions on object types, constraints). */
  userWith(username: string, ...grants: Grant[]): Promise<TestUser>;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  get(path: string, options?: RequestOptions): Promise<Reply>;
  post(path: string, body: unknown, options?: RequestOptions): Promise<Reply>;
  put(path: string, body: unknown, options?: RequestOptions): Promise<Reply>;
  patch(path: string, body: unknown, options?: RequestOptions): Promise<Reply>;
  delete(path: string, options?: RequestOptions): Promise<Reply>;
  /** The SQL statements the server ran while `action` ran, and while it took the events of the writes `action` made. */
  countQueries(action: () => Promise<unknown>): Promise<number>;
  /** Those statements themselves, in order: their text and bindings (which tables a request read, how), events' taking included. */
  statements(action: () => Promise<unknown>): Promise<Statement[]>;
  /** Stops the server and drops the database the kit made for it (close servers joining it first). */
  close(): Promise<void>;
}

/** One database migrated per set of plugins and process; each server gets a copy, which saves the migrations' seconds. */
const templates = new Map<string, Promise<string>>();

function migratedTemplate(builtins: Plugin[], settings: Partial<Settings>): Promise<string> {
  const key = JSON.stringify([builtins.map((p) => p.name), settings.PLUGINS ?? []]);
  let template = templates.get(key);
  if (!template) {
    template = (async () => {
      const name = await createDatabase();
      const booted = await bootstrap({
        builtins, env: { PATCHBAY_CONFIG: '' },
        settings: { LOG_LEVEL: 'error', SECRET_KEY: 'template', PLUGINS_CONFIG: settings.PLUGINS_CONFIG, PLUGINS: settings.PLUGINS, DATABASE_URL: urlOf(name) },
      });
      await booted.closeDatabase();
      return name;
    })();
    // A failed migration is reported to this caller, and tried again by the next.
    template.catch(() => templates.delete(key));
    templates.set(key, template);
  }
  return template;
}

/**
 * Starts Patchbay in this process on a database of its own (a copy of one migrated with the same plugins), with a
 * superuser, listening on a free port. Without REDIS_URL its background jobs run on the PostgreSQL queue.
 */
export function startPatchbay(options: StartOptions = {}): Promise<TestPatchbay> {
  return startServer(options);
}

/** `startPatchbay`, with the whole server for Patchbay's own tests (its database, its filters). */
export async function startServer(options: StartOptions = {}): Promise<TestPatchbay<PatchbayServer>> {
  const builtins = options.builtins ?? builtinPlugins;
  const joined = options.joining?.server.settings;
  const given = { PLUGINS: options.plugins ?? [], ...options.settings };
  let owned: string | undefined;
  if (!given.DATABASE_URL && !joined) owned = await createDatabase(await migratedTemplate(builtins, given));
  const server = await createServer({
    builtins,
    services: options.services,
    env: { PATCHBAY_CONFIG: '' },
    settings: {
      DATABASE_URL: joined?.DATABASE_URL ?? (owned ? urlOf(owned) : undefined),
      ...(joined ? { MEDIA_ROOT: joined.MEDIA_ROOT, REDIS_URL: joined.REDIS_URL, REDIS_PREFIX: joined.REDIS_PREFIX } : {}),
      // Each server its own queue, should it share a Redis.
      ...(given.REDIS_URL && !joined ? { REDIS_PREFIX: `test-${randomUUID()}` } : {}),
      // Every request reads its token, as query budgets count it.
      TOKEN_CACHE_SECONDS: 0,
      PORT: 0,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      SECRET_KEY: 'test-secret',
      ...given,
    },
  });
  let base: string;
  try {
    base = await server.listen();
  } catch (err) {
    await server.close();
    if (owned) await dropDatabase(owned);
    throw err;
  }
  const createUser = (username: string, opts: UserOptions = {}) => insertUser(server, username, opts);
  const admin = options.joining?.admin ?? (await createUser('admin', { superuser: true }));
  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<Reply> => {
    const token = opts.token === undefined ? admin.token : opts.token;
    const headers: Record<string, string> = { Accept: 'application/json', ...(token ? { Authorization: `Token ${token}` } : {}), ...opts.headers };
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(base + path, { method, headers, body, redirect: opts.redirect ?? 'manual' });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };
  const kit: TestPatchbay<PatchbayServer> = {
    base,
    server,
    admin,
    createUser,
    userWith: async (username, ...grants) => {
      const user = await createUser(username);
      for (const [i, g] of grants.entries()) await grant(kit, user, g, `${username} ${i + 1}`);
      return user;
    },
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    put: (path, body, opts) => request('PUT', path, { ...opts, body }),
    patch: (path, body, opts) => request('PATCH', path, { ...opts, body }),
    delete: (path, opts) => request('DELETE', path, opts),
    countQueries: async (action) => {
      const before = server.db.queryCount;
      await action();
      await server.eventsTaken();
      return server.db.queryCount - before;
    },
    statements: async (action) => {
      const seen: Statement[] = [];
      const listener = (q: { sql: string; bindings?: readonly unknown[] }) => void seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
      server.db.knex.on('query', listener);
      try {
        await action();
        await server.eventsTaken();
      } finally {
        server.db.knex.off('query', listener);
      }
      return seen;
    },
    close: async () => {
      await server.close();
      if (owned) await dropDatabase(owned);
    },
  };
  return kit;
}
