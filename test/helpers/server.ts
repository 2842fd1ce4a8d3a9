import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { Settings } from '../../kernel/config/settings.js';
import { createServer, type PatchbayServer } from '../../kernel/server.js';
import { builtinPlugins } from '../../plugins/index.js';

export const EXAMPLE_PLUGIN = './examples/plugins/maintenance/index.ts';

/** A new empty database on the test PostgreSQL; returns its URL. */
export async function freshDatabase(): Promise<string> {
  const admin = inject('pgAdminUrl');
  const name = `test_${randomUUID().replace(/-/g, '')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database "${name}"`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
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
  /** Sent as is, without JSON encoding. */
  raw?: string;
  headers?: Record<string, string>;
  redirect?: RequestRedirect;
}

export interface TestServer {
  base: string;
  server: PatchbayServer;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  get(path: string, options?: RequestOptions): Promise<Reply>;
  post(path: string, body: unknown): Promise<Reply>;
  /** SQL statements the server ran while `action` ran. */
  countQueries(action: () => Promise<unknown>): Promise<number>;
  close(): Promise<void>;
}

/** Starts a server on a fresh database with the real Redis, listening on a free port. */
export async function startServer(options: { plugins?: string[]; settings?: Partial<Settings> } = {}): Promise<TestServer> {
  const server = await createServer({
    builtins: builtinPlugins,
    env: { PATCHBAY_CONFIG: '' },
    settings: {
      DATABASE_URL: await freshDatabase(),
      REDIS_URL: inject('redisUrl'),
      PORT: 0,
      LOG_LEVEL: 'error',
      SECRET_KEY: 'test-secret',
      PLUGINS: options.plugins ?? [],
      ...options.settings,
    },
  });
  const base = await server.listen();
  const request = async (method: string, path: string, opts: RequestOptions = {}) => {
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
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
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body) => request('POST', path, { body }),
    countQueries: async (action) => {
      const before = server.db.queryCount;
      await action();
      return server.db.queryCount - before;
    },
    close: () => server.close(),
  };
}
