import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';
import { until } from '../helpers/wait.js';
import { body, HOSTILE_JSON, HOSTILE_TEXT, listQuery, targets, type ModelTarget } from './generate.js';
import { Fuzz, json, LEAKS, type Sent } from './harness.js';

/**
 * A seeded fuzz of webhooks and event rules: hostile bodies for creates, updates and bulk writes (URLs, templates,
 * headers, methods, secrets, conditions of every shape and depth, action objects, object and event types) and
 * hostile list filters; a refused request must change nothing. Then rules with hostile but valid conditions and
 * templates fire against a local receiver: writes never fail, and every delivery ends delivered or says why it failed.
 */

const ATTEMPTS = 2;
const f = new Fuzz('test/fuzz/webhooks.test.ts', [...LEAKS, /PATH=/, /native code/]);
const { r } = f;
const WEBHOOKS = '/api/extras/webhooks/';
const RULES = '/api/extras/event-rules/';
const DELIVERIES = '/api/extras/webhook-deliveries/';
const receiver = new Receiver();

let t: TestServer;
let limited: TestUser;
let models: ModelTarget[];
/** Webhooks made before the fuzz: what rules' action objects point at. */
const hooks: number[] = [];

beforeAll(async () => {
  await receiver.start();
  t = await startServer({ settings: { WEBHOOK_RETRY_DELAY: 50, WEBHOOK_ATTEMPTS: ATTEMPTS, WEBHOOK_TIMEOUT: 1000, TEMPLATE_TIMEOUT: 500, TEMPLATE_MAX_OUTPUT: 10_000 } });
  f.target(t);
  for (const name of ['seed 1', 'seed 2']) hooks.push((await t.post(WEBHOOKS, { name, payload_url: `${receiver.url}/seed` })).body.id as number);
  await t.post('/api/extras/tags/', { name: 'Gold', slug: 'gold' });
  await t.post('/api/extras/custom-fields/', { name: 'note', type: 'text', object_types: ['tenancy.tenant'] });
  limited = await t.createUser('fuzz-viewer');
  await t.post('/api/users/permissions/', { name: 'view hooks', object_types: ['extras.webhook', 'extras.eventrule'], actions: ['view'], users: [limited.id] });
  models = targets(t.server).filter((m) => ['extras.webhook', 'extras.eventrule', 'extras.webhookdelivery'].includes(m.model.key));
}, 120_000);

let writer: ChildProcess | undefined;
let fifoDir: string | undefined;

afterAll(async () => {
  try {
    await t?.close();
    await receiver.stop();
  } finally {
    // The FIFO's writer ends only now: no delivery can read it any more.
    writer?.kill();
    if (fifoDir) rmSync(fifoDir, { recursive: true, force: true });
  }
});

// ---- Hostile values -----------------------------------------------------------------------------------------------

/** Conditions of every shape NetBox's ConditionSet refuses or takes, `depth` levels of logic deep. */
function conditions(depth = r.pick([0, 0, 1, 3, 20, 49, 60])): unknown {
  const leaf = r.pick<unknown>([
    { attr: 'name', value: 'x' }, { attr: 'id', value: 0, op: 'gt' }, { attr: 'name', value: '(a+)+$', op: 'regex' }, { attr: 'name', value: '(?<=a)b', op: 'regex' },
    { attr: 'name', value: '(', op: 'regex' }, { attr: 'name', value: 'a'.repeat(100_000), op: 'regex' }, { attr: 'x', value: 1, op: 'regex' }, { attr: 'x', value: 'a', op: 'nope' },
    { attr: 1, value: 1 }, { attr: 'x' }, { value: 1 }, { attr: 'x', value: { a: 1 } }, { attr: 'x', value: [1, { a: 1 }], op: 'in' }, { attr: 'x', value: null, op: 'gt' },
    { attr: '__proto__', value: null }, { attr: 'constructor.name', value: 'Object' }, { attr: 'x', value: 1, negate: 'yes' }, { attr: 'x', value: 1, extra: 1 },
    r.pick(HOSTILE_JSON), 'abc', '{"attr": "name", "value": "x"}', '{"attr":', [], ['a'], 1, true,
  ]);
  if (depth === 0) return leaf;
  const logic = r.pick(['and', 'or', 'AND', 'Or', 'xor', '']);
  return { [logic]: r.chance(0.1) ? r.pick(HOSTILE_JSON) : r.some([conditions(depth - 1), leaf], 3) };
}

/** A webhook body: hostile values for some fields, plausible ones for the rest. */
function webhookBody(): Record<string, unknown> {
  const hostile: Record<string, () => unknown> = {
    name: () => r.pick([`hook ${r.int(1e9)}`, ...HOSTILE_TEXT, 'x'.repeat(200)]),
    payload_url: () => r.pick([`${receiver.url}/x`, 'ftp://x', 'javascript:alert(1)', 'file:///etc/passwd', 'http://[::1', '', 'x'.repeat(600), '{{ data.name }}', 'http://{{ nope( }}', `${receiver.url}/{% for i in range(10**9) %}{% endfor %}`, 'http://a b/', '\u0000', r.pick(HOSTILE_JSON)]),
    http_method: () => r.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'TRACE', 'CONNECT', '', 'X'.repeat(100), r.pick(HOSTILE_JSON)]),
    http_content_type: () => r.pick(['application/json', 'text/plain\r\nX-Injected: 1', '', 'x'.repeat(200), '😀', r.pick(HOSTILE_JSON)]),
    additional_headers: () => r.pick(['X-A: b', 'X-A: b\r\nX-Injected: 1', 'no colon', ': empty', 'Bad Header: x', 'X-A: \u00e9', '{{ x }}: {{ y }}', 'X'.repeat(100_000), r.pick(HOSTILE_JSON)]),
    body_template: () => r.pick(['{{ data | tojson }}', '{% for %}', "{{ 'x' * 10**9 }}", '{{ [].constructor.constructor("return process")() }}', '\u0000', r.pick(HOSTILE_JSON)]),
    secret: () => r.pick(['', 's', 'x'.repeat(300), '\u0000', '😀', r.pick(HOSTILE_JSON)]),
    ssl_verification: () => r.pick(HOSTILE_JSON),
    ca_file_path: () => r.pick([null, '', '/etc/passwd', '/nonexistent', '/proc/self/environ', '../../x', 'x'.repeat(5000), r.pick(HOSTILE_JSON)]),
    tags: () => r.pick<unknown>([[{ slug: 'gold' }], ['nope'], [1, 1], 'gold', r.pick(HOSTILE_JSON)]),
    custom_fields: () => r.pick(HOSTILE_JSON),
  };
  const out: Record<string, unknown> = { name: `hook ${r.int(1e9)}`, payload_url: `${receiver.url}/x` };
  for (const key of r.some(Object.keys(hostile), 4)) out[key] = hostile[key]();
  return out;
}

/** An event rule body: hostile values for some fields, often a real webhook as its action object. */
function ruleBody(): Record<string, unknown> {
  const hostile: Record<string, () => unknown> = {
    name: () => r.pick([`rule ${r.int(1e9)}`, ...HOSTILE_TEXT]),
    object_types: () => r.pick<unknown>([['tenancy.tenant'], ['nope.nope'], 'dcim.site', [1], [], ['dcim.site', 'dcim.site'], ['extras.eventrule'], ['extras.webhookdelivery'], ['users.token'], [r.pick(HOSTILE_JSON)], r.pick(HOSTILE_JSON)]),
    event_types: () => r.pick<unknown>([['object_created'], ['nope'], [], 'object_created', [null], ['job_started'], ['object_created', 'object_created'], r.pick(HOSTILE_JSON)]),
    conditions: () => conditions(),
    action_type: () => r.pick(['webhook', 'script', 'notification', 'nope', r.pick(HOSTILE_JSON)]),
    action_object_type: () => r.pick(['extras.webhook', 'dcim.site', 'nope', 'extras.eventrule', r.pick(HOSTILE_JSON)]),
    action_object_id: () => r.pick([...hooks, 0, -1, 99999999999, 2147483648, 'abc', 1.5, r.pick(HOSTILE_JSON)]),
    action_data: () => r.pick(HOSTILE_JSON),
    enabled: () => r.pick(HOSTILE_JSON),
  };
  const out: Record<string, unknown> = {
    name: `rule ${r.int(1e9)}`, object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: r.pick(hooks),
  };
  for (const key of r.some(Object.keys(hostile), 3)) out[key] = hostile[key]();
  return out;
}

/** One write on webhooks or event rules: create, bulk create, update, bulk update or delete, of hostile bodies. */
function write(): Sent {
  const [path, make] = r.pick([[WEBHOOKS, webhookBody], [RULES, ruleBody]] as const);
  const target = models.find((m) => m.path === path)!;
  const some = () => (r.chance(0.2) ? body(r, target) : make());
  const id = () => r.pick<unknown>([...hooks, '1', '2', '0', '99999999999', 'abc', r.pick(HOSTILE_JSON)]);
  return r.pick<() => Sent>([
    () => ({ method: 'POST', path, body: json(some()) }),
    () => ({ method: 'POST', path, body: json([some(), some(), ...(r.chance(0.3) ? [r.pick(HOSTILE_JSON)] : [])]) }),
    () => ({ method: r.pick(['PATCH', 'PUT']), path: `${path}${id()}/`, body: json(some()) }),
    () => ({ method: r.pick(['PATCH', 'PUT']), path, body: json([{ id: id(), ...some() }, { id: id(), ...some() }]) }),
    () => ({ method: 'DELETE', path, body: json(r.chance(0.5) ? [{ id: id() }, { id: id() }] : r.pick(HOSTILE_JSON)) }),
    () => ({ method: 'POST', path, body: r.pick(['{', '[{"name": "x", ', '{"conditions": ' + '{"and": ['.repeat(60) + ']}'.repeat(60) + '}', '\u0000']) }),
  ])();
}

/**
 * The webhooks and rules as the API lists them, and every table's counts: what a refused write leaves as it was. The
 * delivery log is left out: rules a successful write made may record deliveries of its events a moment later.
 */
const state = async () => `${await f.snapshot([WEBHOOKS, RULES], true)} ${await f.fingerprint(['extras_webhookdelivery'])}`;

describe(`webhook fuzz (seed ${f.seed})`, () => {
  it('hostile list filters never fail with a server error', async () => {
    await f.waves(200, () => {
      const target = r.pick(models);
      return f.send({ method: 'GET', path: `${target.path}?${listQuery(r, target)}` }, r.chance(0.2) ? limited.token : undefined);
    });
    f.verify();
  }, 120_000);

  it('hostile writes are answered without a server error, and refused ones change nothing', async () => {
    let refused = 0;
    // The state after a refused write is the next one's before: it must not have changed.
    let before = await state();
    for (let i = 0; i < 300; i++) {
      const req = write();
      const who = r.pick([undefined, undefined, undefined, limited.token, null]);
      const { status } = await f.send(req, who);
      const after = await state();
      if (status < 200 || status >= 300) {
        refused++;
        if (after !== before) f.fail(req, `a refused write (${status}) changed the webhooks, the rules or the database`, { status, text: '' });
      }
      before = after;
    }
    f.verify();
    // Most of these must be refused: the generator is hostile enough.
    expect(refused).toBeGreaterThan(150);
  }, 300_000);

  it('rules with hostile but valid conditions and templates never break writes, and every delivery says how it ended', async () => {
    const https = receiver.url.replace('http:', 'https:');
    const hostileHooks: Record<string, unknown>[] = [
      { payload_url: `${receiver.url}/{{ data.slug }}/{{ event }}?n={{ data.name | urlencode }}`, body_template: '{{ data | tojson }}' },
      { payload_url: `${receiver.url}/loop`, body_template: '{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}' },
      { payload_url: `${receiver.url}/big`, body_template: "{{ 'x' * 10**9 }}" },
      { payload_url: `${receiver.url}/syntax`, body_template: '{% for %}' },
      { payload_url: `${receiver.url}/internals`, body_template: '{{ [].constructor.constructor("return process")() }}{{ dcim }}{{ data.__proto__ }}{{ snapshots.constructor }}' },
      { payload_url: `${receiver.url}/headers`, additional_headers: 'X-A: b\r\nX-Injected: 1\nBad Header: x\nX-U: \u00e9\nContent-Length: 5\nTransfer-Encoding: chunked' },
      { payload_url: `${receiver.url}/headers-loop`, additional_headers: '{% for i in range(5000) %}X-{{ i }}: {{ "v" * 1000 }}\n{% endfor %}' },
      { payload_url: `${receiver.url}/ctype`, http_content_type: 'text/plain\r\nX-Injected: 1' },
      { payload_url: 'http://127.0.0.1:9/', http_method: 'DELETE' },
      { payload_url: '{{ "javascript:alert(1)" }}' },
      { payload_url: '{{ data.name }}' },
      { payload_url: 'file:///etc/passwd' },
      { payload_url: `${receiver.url}/{% for i in range(10**9) %}{% endfor %}` },
      { payload_url: `${https}/tls`, ssl_verification: false },
      { payload_url: `${https}/ca`, ca_file_path: '/etc/passwd' },
      { payload_url: `${receiver.url}/secret`, secret: `😀\u00e9${'x'.repeat(200)}`, http_method: 'PATCH' },
    ];
    let deep: unknown = { attr: 'id', value: 0, op: 'gt' };
    for (let i = 0; i < 45; i++) deep = { [i % 2 ? 'and' : 'OR']: [deep] };
    const hostileConditions: unknown[] = [
      null, deep, { attr: 'name', value: '(a+)+$', op: 'regex' }, { attr: 'name', value: '^(([a-z])+.)+[A-Z]([a-z])+$', op: 'regex' },
      { attr: '__proto__', value: null }, { attr: 'constructor.name', value: 'Object' }, { attr: 'tags.slug', value: 'gold', op: 'contains' },
      { attr: 'custom_fields.note', value: ['a', 'b'], op: 'in' }, { attr: 'id', value: Array.from({ length: 10_000 }, (_, i) => i), op: 'in' },
      { or: [{ attr: 'nope.deeper.still', value: 1 }, { attr: 'status', value: 'x', negate: true }] }, { attr: 'description', value: 'x'.repeat(10_000), op: 'contains', negate: true },
      { AND: [{ attr: 'slug', value: '', op: 'contains' }] }, { attr: 'name', value: 5, op: 'gt' }, { attr: 'tags', value: 'gold', op: 'regex' },
    ];
    const actionData = [null, {}, { id: 'not the id', name: { nested: [1, 2] } }, JSON.parse('{"__proto__": {"polluted": true}, "x": 1}'), { big: 'x'.repeat(10_000) }];
    const made = async (path: string, value: unknown) => {
      const res = await f.send({ method: 'POST', path, body: json(value) });
      return res.status === 201 ? ((res.json as { id: number }).id) : undefined;
    };
    // Of the rules the fuzz before made, a few stay enabled (random but valid ones fire too); the rest would only slow this.
    const before = (await t.get(`${RULES}?limit=0&ordering=id`)).body.results as { id: number }[];
    const quiet = before.slice(8).map(({ id }) => ({ id, enabled: false }));
    if (quiet.length) expect((await t.request('PATCH', RULES, { body: quiet })).status).toBe(200);
    const rule = (name: string, webhook: number, events: string[], extra: Record<string, unknown> = {}) =>
      made(RULES, { name, object_types: ['tenancy.tenant'], event_types: events, action_object_type: 'extras.webhook', action_object_id: webhook, ...extra });
    const canary = (await made(WEBHOOKS, { name: 'canary', payload_url: `${receiver.url}/canary`, secret: 's' }))!;
    await rule('canary', canary, ['object_created', 'object_updated', 'object_deleted']);
    // Each hostile webhook fires on every creation (its templates and headers are used), and on updates and deletions
    // under hostile conditions (fewer renders of the endless ones keep this quick).
    const fired: number[] = [];
    let conditioned = 0;
    for (const [i, hook] of hostileHooks.entries()) {
      const id = await made(WEBHOOKS, { name: `hostile ${i}`, ...hook });
      if (!id) continue;
      if (await rule(`always ${i}`, id, ['object_created'])) fired.push(id);
      if (await rule(`hostile ${i}`, id, ['object_updated', 'object_deleted'], { conditions: r.pick(hostileConditions), action_data: r.pick(actionData) })) conditioned++;
    }
    expect(fired.length, 'hostile but valid webhooks accepted').toBeGreaterThan(hostileHooks.length / 2);
    expect(conditioned, 'rules with hostile but valid conditions accepted').toBeGreaterThan(hostileHooks.length / 2);

    // Four tenants created (one write with all), updated one by one, two deleted at once: 10 events.
    const names = ['(a+)+$aaaaaaaaaaaaaaaaaaaaaaaaaaaa!', 'Ωmega 😀', "o'brien; drop", '\u202etxt'];
    const created = await f.send({ method: 'POST', path: '/api/tenancy/tenants/', body: json(names.map((name, i) => ({ name, slug: `t-${f.seed}-${i}`, tags: [{ slug: 'gold' }], custom_fields: { note: 'a' } }))) });
    const ids = ((created.json as { id: number }[] | undefined) ?? []).map((x) => x.id);
    const writes = [created.status];
    for (const id of ids) writes.push((await f.send({ method: 'PATCH', path: `/api/tenancy/tenants/${id}/`, body: json({ description: 'changed' }) })).status);
    writes.push((await f.send({ method: 'DELETE', path: '/api/tenancy/tenants/', body: json(ids.slice(0, 2).map((id) => ({ id }))) })).status);
    expect(writes, 'writes while hostile rules are enabled').toEqual([201, 200, 200, 200, 200, 204]);

    // Every delivery ends: the canary's all delivered; every failed one says why in each failed attempt.
    const list = async (query: string) => ((await f.send({ method: 'GET', path: `${DELIVERIES}?${query}` })).json as { count: number; results: Delivery[] } | undefined) ?? { count: -1, results: [] };
    await until(async () => (await list(`webhook_id=${canary}&status=delivered&limit=1`)).count === 10 && (await list('status=pending&limit=1')).count === 0, 60_000, 'every delivery to end');
    const { results } = await list('limit=0');
    for (const delivery of results) {
      const req: Sent = { method: 'GET', path: `${DELIVERIES}${delivery.id}/` };
      const status = delivery.status.value;
      if (status !== 'delivered' && status !== 'failed') f.fail(req, `delivery ended ${status}`, { status: 0, text: json(delivery) });
      if (status === 'failed' && delivery.attempts.length !== ATTEMPTS) f.fail(req, `failed after ${delivery.attempts.length} attempts`, { status: 0, text: json(delivery) });
      for (const attempt of delivery.attempts) {
        const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
        if (!ok && !(typeof attempt.error === 'string' && attempt.error.trim())) f.fail(req, 'a failed attempt without its reason', { status: 0, text: json(attempt) });
      }
    }
    // Every webhook that fires on every creation has a delivery of each (however it ended).
    for (const id of fired) expect(results.filter((d) => d.webhook.id === id).length, `deliveries of webhook ${id}`).toBeGreaterThanOrEqual(names.length);
    // No header was injected into a delivery, whatever the templates rendered.
    const injected = receiver.requests.filter((q) => q.headers['x-injected']);
    expect(injected.map((q) => q.path)).toEqual([]);
    f.verify();
  }, 180_000);
});

interface Delivery {
  id: number;
  webhook: { id: number };
  status: { value: string };
  attempts: { status_code: number | null; error: string | null }[];
}

describe('a webhook whose CA file blocks on reading', () => {
  it('fails its delivery without stalling the server', async () => {
    // A FIFO no one writes to: reading it blocks until a writer comes (here a child process, from 4 s on, for every
    // read; it lives until the server is closed, so that no read can block for good). A device (/dev/zero,
    // /dev/urandom) never ends instead; either must not hold every other request of the server.
    fifoDir = mkdtempSync(join(tmpdir(), 'patchbay-fuzz-'));
    const fifo = join(fifoDir, 'ca.pem');
    execFileSync('mkfifo', [fifo]);
    writer = spawn('sh', ['-c', `sleep 4; while :; do echo not-a-certificate > '${fifo}'; done`], { stdio: 'ignore' });
    const hook = (await t.post(WEBHOOKS, { name: 'fifo', payload_url: `${receiver.url.replace('http:', 'https:')}/fifo`, ca_file_path: fifo })).body.id as number;
    await t.post(RULES, { name: 'fifo', object_types: ['dcim.site'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: hook });
    expect((await t.post('/api/dcim/sites/', { name: 'Fifo', slug: 'fifo' })).status).toBe(201);
    // Until every attempt is recorded, the API keeps answering quickly.
    const log = `${DELIVERIES}?webhook_id=${hook}`;
    let slowest = 0;
    let delivery: Delivery | undefined;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && delivery?.status.value !== 'failed'; ) {
      const started = Date.now();
      delivery = (await t.get(log)).body.results[0];
      slowest = Math.max(slowest, Date.now() - started);
      await new Promise((ok) => setTimeout(ok, 100));
    }
    expect(delivery?.status.value, 'the delivery failed').toBe('failed');
    expect(delivery?.attempts.every((a) => a.error), 'each attempt says why').toBe(true);
    expect(slowest, 'the longest answer while the CA file was read (ms)').toBeLessThan(2000);
  }, 60_000);
});
