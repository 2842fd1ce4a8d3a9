import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { Receiver } from '../helpers/receiver.js';
import { redisRelay } from '../helpers/redis-relay.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { ensureCommand } from '../helpers/services.js';
import { until } from '../helpers/wait.js';

/** One sample of a scrape: its metric name (with `_bucket`, `_sum`…), labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of the sample `name` whose labels include `labels` (0 when there is none yet). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found.reduce((sum, s) => sum + s.value, 0);
}

async function scrapeWith(server: TestServer, token?: string): Promise<Sample[]> {
  const res = await fetch(`${server.base}/metrics`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  return parse(await res.text());
}

const scrape = (server: TestServer) => scrapeWith(server);

let t: TestServer;
const receiver = new Receiver();
const TENANTS = '/api/tenancy/tenants/';

beforeAll(async () => {
  await receiver.start();
  t = await startServer({ settings: { METRICS_ENABLED: true, WEBHOOK_REFUSE_LOCAL: false } });
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});

describe('/metrics', () => {
  it('answers Prometheus text without a login, which promtool accepts', async () => {
    const res = await fetch(`${t.base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    for (const family of [
      'rest_api_requests_total_by_method', 'rest_api_requests_total_by_view_method', 'graphql_api_requests_total',
      'django_http_responses_total_by_status', 'django_http_requests_latency_seconds_by_view_method', 'django_model_inserts_total',
      'django_model_updates_total', 'django_model_deletes_total', 'django_db_execute_total', 'django_db_query_duration_seconds',
      'django_migrations_applied_total', 'patchbay_http_request_duration_seconds', 'patchbay_http_request_sql_statements',
      'patchbay_webhook_deliveries_total', 'patchbay_queue_jobs', 'patchbay_template_renders_total', 'patchbay_template_render_seconds',
      'patchbay_template_bridge_waits_total',
      'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text, family).toContain(`# TYPE ${family} `);
    }
    const promtool = ensureCommand('promtool', 'prometheus');
    const check = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    // promtool lints names too (`_total` on counters): only errors fail, as `promtool check metrics` exits 3 for lint findings.
    expect(check.status === 0 || check.status === 3, `${check.stdout}${check.stderr}`).toBe(true);
    expect(`${check.stdout}${check.stderr}`).not.toMatch(/error while linting|parse error|text format parsing error/i);
  });

  it('counts each request, write and statement by the expected amounts, with NetBox view names as labels', async () => {
    const before = await scrape(t);
    let listStatements = 0;
    for (let i = 0; i < 3; i++) listStatements += await t.countQueries(() => t.get(TENANTS));
    const a = (await t.post(TENANTS, { name: 'Metric A', slug: 'metric-a' })).body;
    expect((await t.post(TENANTS, [{ name: 'Metric B', slug: 'metric-b' }, { name: 'Metric C', slug: 'metric-c' }])).status).toBe(201);
    expect((await t.request('PATCH', `${TENANTS}${a.id}/`, { body: { description: 'x' } })).status).toBe(200);
    expect((await t.request('DELETE', `${TENANTS}${a.id}/`)).status).toBe(204);
    expect((await t.get(`${TENANTS}999999/`)).status).toBe(404);
    expect((await t.post('/graphql/', { query: '{ tenant_list { id } }' })).status).toBe(200);
    const after = await scrape(t);
    const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);

    expect(delta('rest_api_requests_total_by_view_method', { view: 'tenancy-api:tenant-list', method: 'GET' })).toBe(3);
    expect(delta('rest_api_requests_total_by_view_method', { view: 'tenancy-api:tenant-list', method: 'POST' })).toBe(2);
    expect(delta('rest_api_requests_total_by_view_method', { view: 'tenancy-api:tenant-detail', method: 'PATCH' })).toBe(1);
    expect(delta('rest_api_requests_total_by_view_method', { view: 'tenancy-api:tenant-detail', method: 'DELETE' })).toBe(1);
    expect(delta('rest_api_requests_total_by_view_method', { view: 'tenancy-api:tenant-detail', method: 'GET' })).toBe(1);
    expect(delta('django_http_responses_total_by_status_view_method', { status: '404', view: 'tenancy-api:tenant-detail', method: 'GET' })).toBe(1);
    expect(delta('django_http_responses_total_by_status', { status: '201' })).toBe(2);
    expect(delta('django_http_responses_total_by_status', { status: '204' })).toBe(1);
    expect(delta('django_http_requests_latency_seconds_by_view_method_count', { view: 'tenancy-api:tenant-list', method: 'GET' })).toBe(3);
    expect(delta('graphql_api_requests_total')).toBe(1);
    expect(delta('django_http_requests_latency_seconds_by_view_method_count', { view: 'graphql', method: 'POST' })).toBe(1);
    expect(delta('django_model_inserts_total', { model: 'tenant' })).toBe(3);
    expect(delta('django_model_updates_total', { model: 'tenant' })).toBe(1);
    expect(delta('django_model_deletes_total', { model: 'tenant' })).toBe(1);
    // The statements of the three lists, as the server counted them, by route template.
    expect(delta('patchbay_http_request_sql_statements_sum', { route: '/api/tenancy/tenants/', method: 'GET' })).toBe(listStatements);
    expect(delta('patchbay_http_request_sql_statements_count', { route: '/api/tenancy/tenants/', method: 'GET' })).toBe(3);
    expect(delta('patchbay_http_request_duration_seconds_count', { route: '/api/tenancy/tenants/{id}/', method: 'DELETE', status: '204' })).toBe(1);
    expect(delta('django_db_execute_total', { alias: 'default', vendor: 'postgresql' })).toBeGreaterThanOrEqual(listStatements);
    expect(delta('django_db_query_duration_seconds_count')).toBe(delta('django_db_execute_total'));
    // Labels are route templates and view names, never paths or ids.
    for (const sample of after) {
      for (const label of Object.values(sample.labels)) expect(label, sample.name).not.toMatch(/\/\d+\/|999999/);
    }
  });

  it('counts template renders and webhook deliveries by result, and shows the queue', async () => {
    const before = await scrape(t);
    const template = (await t.post('/api/extras/config-templates/', { name: 'metric', template_code: 'hello {{ name }}' })).body;
    expect((await t.post(`/api/extras/config-templates/${template.id}/render/`, { name: 'x' })).status).toBe(200);
    expect((await t.post(`/api/extras/config-templates/${template.id}/render/`, { name: 'x' })).status).toBe(200);
    const broken = (await t.post('/api/extras/config-templates/', { name: 'broken', template_code: '{{ 1 / 0 }}' })).body;
    expect((await t.post(`/api/extras/config-templates/${broken.id}/render/`, {})).status).toBe(400);

    const hook = (await t.post('/api/extras/webhooks/', { name: 'metrics', payload_url: `${receiver.url}/hook` })).body;
    await t.post('/api/extras/event-rules/', {
      name: 'metrics', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_type: 'webhook',
      action_object_type: 'extras.webhook', action_object_id: hook.id,
    });
    await t.post(TENANTS, { name: 'Hooked', slug: 'hooked' });
    await until(() => receiver.requests.length === 1);
    await until(async () => value(await scrape(t), 'patchbay_webhook_deliveries_total', { result: 'delivered' }) === value(before, 'patchbay_webhook_deliveries_total', { result: 'delivered' }) + 1);
    const after = await scrape(t);
    const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    expect(delta('patchbay_template_renders_total', { purpose: 'config_template', result: 'ok' })).toBe(2);
    expect(delta('patchbay_template_renders_total', { purpose: 'config_template', result: 'error' })).toBe(1);
    expect(delta('patchbay_template_render_seconds_count', { purpose: 'config_template' })).toBe(3);
    // The included template is a read the first render waits on; the next render finds it read ahead.
    const including = (await t.post('/api/extras/config-templates/', { name: 'including', template_code: '{% include "metric" %}!' })).body;
    const waits = async () => value(await scrape(t), 'patchbay_template_bridge_waits_total', { purpose: 'config_template' });
    const start = await waits();
    expect((await t.post(`/api/extras/config-templates/${including.id}/render/`, { name: 'y' }, { headers: { accept: 'application/json' } })).body.content).toBe('hello y!');
    const first = await waits();
    expect(first - start).toBeGreaterThanOrEqual(1);
    expect((await t.post(`/api/extras/config-templates/${including.id}/render/`, { name: 'z' }, { headers: { accept: 'application/json' } })).body.content).toBe('hello z!');
    expect(await waits()).toBe(first);
    expect(delta('patchbay_webhook_deliveries_total', { result: 'delivered' })).toBe(1);
    expect(delta('patchbay_webhook_delivery_seconds_count', { result: 'delivered' })).toBe(1);
    expect(after.some((s) => s.name === 'patchbay_queue_jobs' && s.labels.queue === 'default' && s.labels.state === 'finished')).toBe(true);
    expect(value(after, 'patchbay_queue_workers', { queue: 'default' })).toBe(1);
  });
});

describe('/metrics of several processes', () => {
  it('sums every process sharing the Redis and prefix, keeps the counts of one that ended, and retires one that died', async () => {
    const prefix = `test-${randomUUID()}`;
    const settings = { METRICS_ENABLED: true, METRICS_TOKEN: 'scrape-secret', METRICS_PUBLISH_SECONDS: 1, REDIS_PREFIX: prefix, RUN_JOBS: false };
    const a = await startServer({ settings });
    const b = await startServer({ settings });
    const redis = new Redis(inject('redisUrl'));
    const gets = (samples: Sample[]) => value(samples, 'rest_api_requests_total_by_view_method', { view: 'tenancy-api:tenant-list', method: 'GET' });
    const scrape = (server: TestServer) => scrapeWith(server, 'scrape-secret');
    try {
      // METRICS_TOKEN: a Prometheus bearer_token, compared in constant time.
      for (const headers of [{}, { Authorization: 'Bearer wrong' }] as Record<string, string>[]) {
        const refused = await fetch(`${a.base}/metrics`, { headers });
        expect(refused.status).toBe(401);
        expect(await refused.json()).toEqual({ detail: 'A valid bearer token is required to read the metrics.' });
      }
      for (let i = 0; i < 3; i++) await a.get(TENANTS);
      for (let i = 0; i < 2; i++) await b.get(TENANTS);
      // Each one's figures reach the other within a publishing interval.
      await until(async () => gets(await scrape(a)) === 5, 5000);
      await until(async () => gets(await scrape(b)) === 5, 5000);

      // B held up so long it is taken for ended: A retires it; B's next publish is refused, and B goes on from zero
      // under a new name, so that nothing is counted twice.
      const live = `${prefix}:metrics:live`;
      const published = await redis.hgetall(live);
      const before = new Set(Object.keys(published));
      // B is the process whose snapshot holds its 2 lists.
      const listsIn = (text: string) => (JSON.parse(text) as { name: string; values: { value: number; labels: Record<string, string> }[] }[])
        .find((m) => m.name === 'rest_api_requests_total_by_view_method')?.values.find((v) => v.labels.view === 'tenancy-api:tenant-list')?.value;
      const held = Object.keys(published).find((id) => listsIn(published[id]) === 2)!;
      await redis.zadd(`${prefix}:metrics:seen`, Date.now() - 60_000, held);
      expect(gets(await scrape(a))).toBe(5);
      await until(async () => Object.keys(await redis.hgetall(live)).some((id) => !before.has(id)), 5000);
      expect(Object.keys(await redis.hgetall(live))).not.toContain(held);
      expect(gets(await scrape(a))).toBe(5);
      await b.get(TENANTS);
      await until(async () => gets(await scrape(a)) === 6, 5000);

      // A process that closes retires its counters: the sum does not go down.
      await b.close();
      expect(gets(await scrape(a))).toBe(6);
      expect(Object.keys(await redis.hgetall(`${prefix}:metrics:live`))).toHaveLength(1);

      // One that died (its last snapshot stale) is retired by the next scrape, once.
      const dead = JSON.stringify([{
        name: 'rest_api_requests_total_by_view_method', help: 'h', type: 'counter', aggregator: 'sum',
        values: [{ value: 7, labels: { view: 'tenancy-api:tenant-list', method: 'GET' } }],
      }, { name: 'process_resident_memory_bytes', help: 'h', type: 'gauge', aggregator: 'sum', values: [{ value: 1e12, labels: {} }] }]);
      await redis.multi().hset(`${prefix}:metrics:live`, 'dead:1', dead).zadd(`${prefix}:metrics:seen`, Date.now() - 60_000, 'dead:1').exec();
      const first = await scrape(a);
      expect(gets(first)).toBe(13);
      // Its gauges leave with it.
      expect(value(first, 'process_resident_memory_bytes')).toBeLessThan(1e12);
      expect(await redis.hexists(`${prefix}:metrics:live`, 'dead:1')).toBe(0);
      expect(gets(await scrape(a))).toBe(13);
    } finally {
      redis.disconnect();
      await a.close();
      await b.close().catch(() => undefined);
    }
  });

  it('answers with its own figures while Redis does not answer', async () => {
    const relay = await redisRelay(inject('redisUrl'));
    const alone = await startServer({ settings: { METRICS_ENABLED: true, REDIS_URL: relay.url, RUN_JOBS: false } });
    try {
      await alone.get(TENANTS);
      relay.pause();
      const started = performance.now();
      const samples = await scrape(alone);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(value(samples, 'rest_api_requests_total_by_view_method', { view: 'tenancy-api:tenant-list', method: 'GET' })).toBe(1);
      // The queue's gauges have no values while the queue does not answer.
      expect(samples.some((s) => s.name === 'patchbay_queue_jobs')).toBe(false);
      relay.resume();
    } finally {
      relay.resume();
      await alone.close();
      await relay.close();
    }
  });
});
