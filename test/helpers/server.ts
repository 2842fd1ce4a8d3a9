import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { keyDigest } from '../../kernel/auth/tokens.js';
import { hashPassword } from '../../plugins/users/password.js';
import type { Settings } from '../../kernel/config/settings.js';
import type { Row } from '../../kernel/base/types.js';
import { bootstrap } from '../../kernel/boot.js';
import { createServer, type PatchbayServer, type ServiceOverrides } from '../../kernel/server.js';
import type { Plugin } from '../../kernel/plugin.js';
import { builtinPlugins } from '../../plugins/index.js';

export const EXAMPLE_PLUGIN = './examples/plugins/maintenance/index.ts';

/** Databases the current test file made, dropped when it ends (`dropFileDatabases`). */
const fileDatabases = new Set<string>();

/** Runs `sql` on the test PostgreSQL's admin database. */
async function onAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new database on the test PostgreSQL, empty or a copy of `template`; returns its name. */
async function createDatabase(template?: string): Promise<string> {
  const name = `test_${randomUUID().replace(/-/g, '')}`;
  // Copying the template's files is faster than logging them page by page, with fsync off as on the test PostgreSQL.
  await onAdmin(template ? `create database "${name}" template "${template}" strategy file_copy` : `create database "${name}"`);
  return name;
}

/** The URL of database `name` on the test PostgreSQL. */
function urlOf(name: string): string {
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

/** A new database (empty, or a copy of `template`) that the test file owns; returns its URL. */
async function fileDatabase(template?: string): Promise<string> {
  const name = await createDatabase(template);
  fileDatabases.add(name);
  return urlOf(name);
}

/** A new empty database on the test PostgreSQL, dropped when the test file ends; returns its URL. */
export function freshDatabase(): Promise<string> {
  return fileDatabase();
}

/**
 * Drops the databases the test file made (a migrated one takes some 22 MB): the suite makes hundreds, and removing
 * them all at its end took longer than dropping each file's while the other file running beside it goes on.
 */
export async function dropFileDatabases(): Promise<void> {
  for (const name of fileDatabases) await onAdmin(`drop database if exists "${name}" with (force)`);
  fileDatabases.clear();
}

let template: Promise<string> | undefined;

/**
 * A new database with every built-in migration applied: a copy of one migrated once per test process (a process
 * runs file after file), which saves each server the seconds its migrations take.
 */
async function migratedDatabase(): Promise<string> {
  template ??= (async () => {
    const name = await createDatabase();
    const booted = await bootstrap({ builtins: builtinPlugins, env: { PATCHBAY_CONFIG: '' }, settings: { DATABASE_URL: urlOf(name), LOG_LEVEL: 'error', SECRET_KEY: 'template' } });
    await booted.closeDatabase();
    return name;
  })();
  return fileDatabase(await template);
}

/** Response bodies are asserted field by field; their shape is what the tests check, not what they assume. */
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

export interface TestUser {
  id: number;
  username: string;
  password: string;
  token: string;
}

export interface TestServer {
  base: string;
  server: PatchbayServer;
  /** A superuser whose token requests carry by default. */
  admin: TestUser;
  /** Adds a user (with a password and a fresh token) straight into the database. */
  createUser(username: string, options?: { superuser?: boolean; active?: boolean; tokenFields?: Row }): Promise<TestUser>;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  get(path: string, options?: RequestOptions): Promise<Reply>;
  post(path: string, body: unknown, options?: RequestOptions): Promise<Reply>;
  /** SQL statements the server ran while `action` ran. */
  countQueries(action: () => Promise<unknown>): Promise<number>;
  close(): Promise<void>;
}

const PASSWORD = 'correct horse battery';
let passwordHash: Promise<string> | undefined;

/** A user and a token, written directly (scrypt once per run); the token counts as just used. */
async function insertUser(server: PatchbayServer, username: string, opts: { superuser?: boolean; active?: boolean; tokenFields?: Row }): Promise<TestUser> {
  passwordHash ??= hashPassword(PASSWORD);
  const db = server.db.knex;
  const [user] = await db('users_user')
    .insert({ username, password: await passwordHash, is_superuser: !!opts.superuser, is_staff: !!opts.superuser, is_active: opts.active ?? true, created: db.fn.now(), last_updated: db.fn.now() })
    .returning('id');
  const token = randomBytes(20).toString('hex');
  await db('users_token').insert({ user_id: user.id, key: token, key_digest: keyDigest(token), last_used: db.fn.now(), created: db.fn.now(), last_updated: db.fn.now(), ...opts.tokenFields });
  return { id: user.id, username, password: PASSWORD, token };
}

/**
 * Starts a server on a fresh database with the real Redis, listening on a free port; or, `joining` another, a second
 * server on its database, queue and media directory, with its admin (as a second machine behind a load balancer).
 */
export async function startServer(options: { plugins?: string[]; settings?: Partial<Settings>; joining?: TestServer; services?: ServiceOverrides; builtins?: Plugin[] } = {}): Promise<TestServer> {
  const joined = options.joining?.server.settings;
  const server = await createServer({
    builtins: options.builtins ?? builtinPlugins,
    services: options.services,
    env: { PATCHBAY_CONFIG: '' },
    settings: {
      DATABASE_URL: options.settings?.DATABASE_URL ?? joined?.DATABASE_URL ?? (await migratedDatabase()),
      REDIS_URL: inject('redisUrl'),
      // Each server its own queue in the shared Redis.
      REDIS_PREFIX: joined?.REDIS_PREFIX ?? `test-${randomUUID()}`,
      ...(joined ? { MEDIA_ROOT: joined.MEDIA_ROOT } : {}),
      // No periodic outbox sweep during a test (its statements would count in query budgets); tests of it set their own.
      OUTBOX_SWEEP_SECONDS: 3600,
      // Every request reads its token, as query budgets count it; tests of the token cache set their own.
      TOKEN_CACHE_SECONDS: 0,
      PORT: 0,
      LOG_LEVEL: 'error',
      SECRET_KEY: 'test-secret',
      PLUGINS: options.plugins ?? [],
      ...options.settings,
    },
  });
  const base = await server.listen();
  const createUser = (username: string, opts: { superuser?: boolean; active?: boolean; tokenFields?: Row } = {}) =>
    insertUser(server, username, opts);
  const admin = options.joining?.admin ?? (await createUser('admin', { superuser: true }));
  const request = async (method: string, path: string, opts: RequestOptions = {}) => {
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
    return { status: res.status, headers: res.headers, text, body: parsed } as Reply;
  };
  return {
    base,
    server,
    admin,
    createUser,
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    countQueries: async (action) => {
      const before = server.db.queryCount;
      await action();
      return server.db.queryCount - before;
    },
    close: () => server.close(),
  };
}
