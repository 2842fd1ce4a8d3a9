import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/wait.js';
import { adminToken, npmStart, pathWithout, printOutputOnFailure, removeData, stopAll, type NpmStart } from './harness.js';
import {
  abortedUpload, chunkedPastLimit, contentLengthReset, freshGet, partialHeaders, readThenReset, resetAfterAnswer,
} from './sockets.js';

/** Four lists of 10 million items: more than a render's heap (TEMPLATE_MEMORY_MB, 256) holds. */
const MEMORY_BOMB = '{% set a = [0]*9999999 %}{% set b = [a]*9999999 %}{% set c = [b]*9999999 %}{% set d = [c]*9999999 %}{{ d|length }}';

/**
 * Hostile requests, templates and jobs against `npm start` with its defaults (two server processes, the embedded
 * PostgreSQL; with and without redis-server installed): each gets a 4xx or its normal answer, and no server process
 * ends (the supervisor's workers keep their pids, and it never reports one exiting).
 */
describe.each([
  ['without redis-server', false],
  ['with redis-server', true],
])('npm start %s', (_name, withRedis) => {
  let server: NpmStart;
  let token: string;
  let workers: number[];
  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(server.base + path, {
      method, body: body === undefined ? undefined : JSON.stringify(body),
      headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    });
    const text = await res.text();
    return { status: res.status, text, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : undefined };
  };
  /** Every server process that served at the start serves still. */
  const survived = async () => {
    expect(server.output()).not.toMatch(/Worker \d+ exited/);
    expect(server.workers()).toEqual(workers);
    expect((await api('GET', '/api/status/')).status).toBe(200);
  };

  beforeAll(async () => {
    const path = withRedis ? process.env.PATH! : pathWithout('redis-server').path;
    server = await npmStart({ path, env: { WEBHOOK_ATTEMPTS: '2', WEBHOOK_RETRY_DELAY: '200' } });
    token = await adminToken(server);
    workers = server.workers();
    expect(server.output()).toContain(withRedis ? 'Started an embedded Redis' : 'background jobs queue in PostgreSQL');
  }, 180_000);
  printOutputOnFailure(() => server);
  afterAll(async () => {
    await server?.stop();
    await stopAll();
    if (server) removeData(server.dataDir);
  }, 60_000);

  it('survives aborted uploads and resets before, during and after the answer, anonymous or not', async () => {
    for (const who of [undefined, token]) {
      expect(await chunkedPastLimit(server.port, who)).not.toMatch(/^HTTP\/1\.1 5/);
      await contentLengthReset(server.port, 20_000_000, 3 * 1024 * 1024, who);
      await contentLengthReset(server.port, 5_000_000, 1024 * 1024, who);
    }
    await abortedUpload(server.port, token);
    // The OpenAPI document is large: cut off after its first bytes, or never read.
    await readThenReset(server.port, '/api/schema/?format=json', token, { afterBytes: 1 });
    await readThenReset(server.port, '/api/schema/?format=json', token, { afterBytes: 200_000 });
    await readThenReset(server.port, '/api/schema/?format=json', token, { stallMs: 1500 });
    for (let i = 0; i < 5; i++) await resetAfterAnswer(server.port, token);
    await partialHeaders(server.port);
    // Many at once, on both processes.
    await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? chunkedPastLimit(server.port) : readThenReset(server.port, '/api/schema/?format=json', token, { afterBytes: 10 }))));
    await new Promise((r) => setTimeout(r, 500));
    await survived();
  }, 120_000);

  it('answers template bombs with a 400 (or their output), in a process of their own', async () => {
    const bombs = [
      '{% set a = [0]*9999999 %}{% set b=[a]*9999999 %}{{ b|length }}',
      MEMORY_BOMB,
      '{% set s = "x" * 9999999 %}{{ (s ~ s ~ s ~ s ~ s ~ s ~ s ~ s ~ s ~ s ~ s ~ s)|upper|length }}',
      '{% set l = [] %}{% for i in range(100000) %}{% set _ = l.append("y" * 9999) %}{% endfor %}{{ l|length }}',
      '{{ ("ab" * 4999999).split("a")|length }}',
      '{{ (range(99999)|list * 100)|string|length }}',
      '{% set d = {} %}{% for i in range(100000) %}{% set _ = d.update({i: [i] * 999}) %}{% endfor %}{{ d|length }}',
      '{{ ([[0] * 9999999] * 9999999)|tojson|length }}',
      '{{ ("{:>9999999}".format(1) * 9)|length }}',
      '{% macro m(n) %}{{ "z" * 9999999 }}{% endmacro %}{% set ns = namespace(s="") %}{% for i in range(60) %}{% set ns.s = ns.s ~ m(i) %}{% endfor %}{{ ns.s|length }}',
    ];
    for (const code of bombs) {
      const { body: template } = await api('POST', '/api/extras/config-templates/', { name: `bomb ${Math.random()}`, template_code: code });
      const rendered = await api('POST', `/api/extras/config-templates/${template.id}/render/`, {});
      expect([200, 400], code).toContain(rendered.status);
      if (rendered.status === 400) expect(rendered.body.detail, code).toMatch(/memory|too large|larger than|exceeds/i);
    }
    const { body: plain } = await api('POST', '/api/extras/config-templates/', { name: 'plain', template_code: 'hostname {{ name }}' });
    expect((await api('POST', `/api/extras/config-templates/${plain.id}/render/`, { name: 'r1' })).body.content).toBe('hostname r1');
    await survived();
  }, 240_000);

  it('ends a webhook whose template runs out of memory: each attempt fails, the delivery ends failed, nothing crash-loops', async () => {
    const { body: hook } = await api('POST', '/api/extras/webhooks/', {
      name: 'bomb', payload_url: 'http://127.0.0.1:9/', body_template: MEMORY_BOMB,
    });
    await api('POST', '/api/extras/event-rules/', {
      name: 'bomb', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: hook.id,
    });
    // A process that has not heard of the rule yet makes no delivery (as in processes.test.ts): a tenant, and another
    // if none was delivered within 5 s, until one is.
    const log = `/api/extras/webhook-deliveries/?webhook_id=${hook.id}`;
    let made = 0;
    await until(async () => {
      made += 1;
      await api('POST', '/api/tenancy/tenants/', { name: `Detonator ${made}`, slug: `detonator-${made}` });
      return until(async () => (await api('GET', log)).body.count > 0, 5_000).then(() => true, () => false);
    }, 60_000, 'a delivery of the rule');
    // Each attempt ends at the latest after TEMPLATE_TIMEOUT (10 s); a loaded machine starts template processes slowly.
    await until(async () => (await api('GET', `${log}&status=failed`)).body.count === (await api('GET', log)).body.count, 150_000, 'the deliveries failed');
    const { results } = (await api('GET', log)).body;
    expect(results.length).toBeGreaterThan(0);
    for (const delivery of results) {
      expect(delivery.attempts).toHaveLength(2);
      for (const attempt of delivery.attempts) expect(attempt.error).toMatch(/memory/i);
    }
    await survived();
  }, 240_000);

  it('refuses bodies of 500,000 keys before parsing them, anonymous or not, while serving others', async () => {
    const wide = `{${Array.from({ length: 500_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    const send = (path: string, body: string, auth: boolean) => fetch(server.base + path, {
      method: 'POST', body, headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(auth ? { Authorization: `Token ${token}` } : {}) },
    }).then((r) => r.status);
    const bodies = [
      send('/api/tenancy/tenants/', wide, false),
      send('/api/tenancy/tenants/', wide, true),
      send('/graphql/', `{"query": "{ site_list { id } }", "variables": ${wide}}`, true),
      send('/api/tenancy/tenants/', wide, true),
    ];
    const latencies: number[] = [];
    let pending = true;
    const all = Promise.all(bodies).finally(() => (pending = false));
    while (pending) {
      const started = performance.now();
      expect((await freshGet(server.base, '/api/status/', { Authorization: `Token ${token}` })).status).toBe(200);
      latencies.push(performance.now() - started);
    }
    expect(await all).toEqual([403, 400, 400, 400]);
    // Timing is the bench's to assert; the chaos run reports what it saw.
    console.log(`/api/status/ while 500,000-key bodies arrived: ${latencies.length} requests, slowest ${Math.round(Math.max(...latencies))} ms`);
    await survived();
  }, 120_000);

  it('sums every server process in /metrics: across fresh connections, a counter never falls', async () => {
    const counter = /^django_http_requests_total_by_method\{method="GET"\} (\d+)/m;
    const seen: number[] = [];
    for (let i = 0; i < 50; i++) {
      const { status, body } = await freshGet(server.base, '/metrics');
      expect(status).toBe(200);
      const value = Number(counter.exec(body)?.[1]);
      // A scrape is counted once answered: the next may not see it yet (it is the other process's), never less.
      expect(value, seen.join(', ')).toBeGreaterThanOrEqual(seen.at(-1) ?? 0);
      seen.push(value);
    }
    // Both processes answered scrapes, and every process's scrapes are in the sum.
    expect(seen.at(-1)! - seen[0]).toBeGreaterThanOrEqual(45);
    await survived();
  }, 120_000);
});
