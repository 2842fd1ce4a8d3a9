import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../kernel/base/log.js';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const lines: string[] = [];

beforeAll(async () => {
  t = await startServer({ plugins: ['./test/fixtures/plugins/faulty.ts'], settings: { LOG_LEVEL: 'info', LOG_FORMAT: 'json' } });
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    // Only this server's lines are kept from the test's output.
    return String(chunk).includes('"request_id"') ? true : (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t?.close();
});

/** The JSON lines logged for one request, by its id. */
const logged = (requestId: string | null) =>
  lines.flatMap((line) => {
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      return entry.request_id === requestId ? [entry] : [];
    } catch {
      return [];
    }
  });

describe('structured logs', () => {
  it('log one access line per request: request id, user, method, route, path, status, duration and SQL statements', async () => {
    let res!: Awaited<ReturnType<TestServer['get']>>;
    const statements = await t.countQueries(async () => {
      res = await t.get('/api/tenancy/tenants/?limit=5&q=secret-query-text');
    });
    const entries = logged(res.headers.get('x-request-id'));
    expect(entries).toEqual([{
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), level: 'info', msg: 'request', method: 'GET', path: '/api/tenancy/tenants/', status: 200,
      duration_ms: expect.any(Number), sql: statements, user: 'admin', route: '/api/tenancy/tenants/', request_id: res.headers.get('x-request-id'),
    }]);
    // The query string (which may carry secrets) stays out of the log.
    expect(JSON.stringify(entries)).not.toContain('secret-query-text');

    const detail = await t.get('/api/tenancy/tenants/12345/', { token: null });
    expect(logged(detail.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ msg: 'request', status: 403, user: null, path: '/api/tenancy/tenants/12345/', sql: expect.any(Number) }),
    ]);
  });

  it('log an unexpected error once, with its stack, under the request id the client gets, and send the client no stack', async () => {
    const res = await t.get('/api/plugins/faulty/broken/');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'Server error', request_id: res.headers.get('x-request-id') });
    const entries = logged(res.headers.get('x-request-id'));
    const errors = entries.filter((e) => e.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].msg).toMatch(/^GET \/api\/plugins\/faulty\/broken\/ failed: Error: insert into "secret"[\s\S]*\n\s+at /);
    expect(entries.filter((e) => e.msg === 'request')).toEqual([expect.objectContaining({ status: 500, route: '/api/plugins/faulty/broken/' })]);
  });

  it('read as text by default: the message, then key=value pairs, quoted where needed', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    createLogger('info').info('request', { method: 'GET', path: '/api/', status: 200, user: 'jane doe', route: null, skipped: undefined });
    createLogger('warn').info('not shown');
    const texts = write.mock.calls.map((call) => String(call[0])).filter((line) => /jane doe|not shown/.test(line));
    write.mockRestore();
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO request method=GET path=\/api\/ status=200 user="jane doe" route=null\n$/);
  });
});
