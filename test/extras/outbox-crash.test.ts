import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '@patchbay/embedded';
import { spawnManage } from '../helpers/cli.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type Body, type TestServer } from '../helpers/server.js';
import { redisRelay } from '../helpers/redis-relay.js';
import { STARTS_WITHIN, until } from '../helpers/wait.js';

/**
 * A server process killed in a write's transaction, or after the write committed its deliveries (to the outbox) and
 * before their job reached the queue; events an earlier version left in the outbox table; a queue that stops answering; a database
 * recreated on the same queue: each committed event is delivered exactly once, and no other.
 */
let setup: TestServer;
const receiver = new Receiver();
const children: ChildProcess[] = [];
let env: Record<string, string>;
let token: string;

/** `manage runserver` on the test's database and queue; resolves with its base URL once it listens. */
async function runserver(extra: Record<string, string> = {}): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawnManage(['runserver'], { ...env, PORT: String(port), HOST: '127.0.0.1', ...extra });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await until(() => out.includes('Patchbay listening on'), STARTS_WITHIN, `runserver to listen (${out})`);
  return { child, base: `http://127.0.0.1:${port}` };
}

const api = (base: string, path: string, init: RequestInit = {}) =>
  fetch(base + path, { ...init, headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json', Accept: 'application/json', ...init.headers } });

async function count(sql: pg.Client, table: string, where = 'true'): Promise<number> {
  return (await sql.query(`select count(*)::int as n from ${table} where ${where}`)).rows[0].n;
}

/** The server process under test; each test hands the one it leaves running to the next (a process start is seconds). */
let current: { child: ChildProcess; base: string };
let relay: Awaited<ReturnType<typeof redisRelay>>;
let sql: pg.Client;

/**
 * Kills the server process, and waits for the relay to see its connections close, as Redis sees a dead process's
 * (else a blocking read for jobs could outlive it and take a job).
 */
async function kill(server: { child: ChildProcess }): Promise<void> {
  server.child.kill('SIGKILL');
  await new Promise((ok) => server.child.once('exit', ok));
  await until(() => relay.open() === 0, 10_000, 'the dead server\'s connections to close');
}

beforeAll(async () => {
  await receiver.start();
  // Migrates a fresh database and sets up the rule; the servers under test are processes of their own, reaching
  // Redis through a relay the tests can pause, and retrying a failed enqueue every 2 s.
  setup = await startServer();
  token = setup.admin.token;
  const { body: webhook } = await setup.post('/api/extras/webhooks/', { name: 'to receiver', payload_url: `${receiver.url}/` });
  await setup.post('/api/extras/event-rules/', {
    name: 'tenants', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: webhook.id,
  });
  const { settings } = setup.server;
  relay = await redisRelay(settings.REDIS_URL!);
  env = {
    DATABASE_URL: setup.server.db.url, REDIS_URL: relay.url, REDIS_PREFIX: settings.REDIS_PREFIX, SECRET_KEY: 'test-secret', LOG_LEVEL: 'info',
    OUTBOX_SWEEP_SECONDS: '2',
  };
  await setup.close();
  sql = new pg.Client({ connectionString: env.DATABASE_URL });
  await sql.connect();
  current = await runserver();
}, STARTS_WITHIN + 60_000);
beforeEach(() => {
  receiver.requests.length = 0;
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await sql?.end();
  await relay?.close();
  await receiver.stop();
});

/** Waits for `names` to arrive, and a sweep's time more for a duplicate to show up, if there were one. */
async function deliveredOnce(names: string[]): Promise<void> {
  await until(() => receiver.requests.length >= names.length, 20_000, `${names.length} deliveries`);
  await new Promise((r) => setTimeout(r, 2500));
  expect(receiver.requests.map((r) => JSON.parse(r.text).data.name).sort()).toEqual(names);
}

describe('a server killed mid-write, or between commit and enqueue', () => {
  it('leaves deliveries in the outbox in the write\'s transaction: a write that dies before its commit leaves neither objects nor deliveries', async () => {
    // Deliveries cannot be left in the outbox while the test holds this lock: the write waits on it, inside its transaction.
    await sql.query('begin');
    await sql.query('lock table extras_webhookoutbox in exclusive mode');
    const write = api(current.base, '/api/tenancy/tenants/', {
      method: 'POST', body: JSON.stringify([1, 2, 3, 4, 5].map((n) => ({ name: `Crash ${n}`, slug: `crash-${n}` }))),
    }).catch(() => undefined);
    // The insert waits for the lock (since the parse of the statement, so its text is not shown yet). Only this
    // database's waits count: pg_locks lists every database's, and other test files run beside this one.
    const blocked = async () =>
      (await sql.query(`select count(*)::int as n from pg_locks where not granted and relation = 'extras_webhookoutbox'::regclass and database = (select oid from pg_database where datname = current_database())`)).rows[0].n === 1;
    await until(blocked, 20_000, 'the write to wait on the lock');

    await kill(current);
    // What PostgreSQL does when it notices the dead client: its connections end, their transactions roll back.
    await sql.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    await sql.query('rollback');
    await write;
    expect(await count(sql, 'tenancy_tenant')).toBe(0);
    expect(await count(sql, 'extras_webhookoutbox')).toBe(0);
    expect(await count(sql, 'extras_webhookdelivery')).toBe(0);

    current = await runserver();
    await new Promise((r) => setTimeout(r, 2500));
    expect(receiver.requests).toHaveLength(0);
    // The restart scheduled no second system job either.
    expect(((await (await api(current.base, '/api/core/jobs/?interval=1440')).json()) as Body).count).toBe(2);
  }, STARTS_WITHIN + 60_000);

  it('takes at start the events an earlier version left in the outbox, each delivered once', async () => {
    await kill(current);
    const event = (id: number, name: string) => ({
      type: 'object_created', model: 'tenancy.tenant', id, timestamp: '2026-11-29T10:00:00.000000+00:00', userId: null, username: '',
      requestId: '00000000-0000-4000-8000-000000000000', data: { id, name }, snapshots: { prechange: null, postchange: { name } },
    });
    await sql.query(`insert into core_eventoutbox (events) values ($1), ($2)`, [JSON.stringify([event(9001, 'Left 1'), event(9002, 'Left 2')]), JSON.stringify([event(9003, 'Left 3')])]);

    current = await runserver();
    await deliveredOnce(['Left 1', 'Left 2', 'Left 3']);
    expect(await count(sql, 'core_eventoutbox')).toBe(0);
    expect(((await (await api(current.base, '/api/extras/webhook-deliveries/?limit=0')).json()) as Body).count).toBe(3);
  }, STARTS_WITHIN + 60_000);

  it('leaves the deliveries in the outbox before enqueueing them; the next start enqueues those left there, each sent once', async () => {
    const before = await count(sql, 'extras_webhookdelivery');
    relay.pause();
    const write = api(current.base, '/api/tenancy/tenants/', {
      method: 'POST', body: JSON.stringify([1, 2, 3].map((n) => ({ name: `Stalled ${n}`, slug: `stalled-${n}` }))),
    }).catch(() => undefined);
    // The write committed its three deliveries to the outbox; their job's enqueue waits on a Redis that does not answer.
    const outboxed = async () => (await sql.query(`select coalesce(sum(cardinality(ids)), 0)::int as n from extras_webhookoutbox`)).rows[0].n as number;
    await until(async () => (await outboxed()) === 3, 20_000, 'three deliveries in the outbox');
    expect(await count(sql, 'tenancy_tenant', `name like 'Stalled %'`)).toBe(3);
    await kill(current);
    await write;
    // What the dead server had sent is gone with its connections.
    relay.resume();
    expect(receiver.requests).toHaveLength(0);

    current = await runserver();
    await deliveredOnce(['Stalled 1', 'Stalled 2', 'Stalled 3']);
    expect(await count(sql, 'extras_webhookdelivery')).toBe(before + 3);
    expect(await count(sql, 'extras_webhookdelivery', `status <> 'delivered'`)).toBe(0);
    expect(await outboxed()).toBe(0);
  }, STARTS_WITHIN + 60_000);
});

describe('a queue that stops answering', () => {
  it('holds no write back for long; once it answers, every event is delivered once', async () => {
    relay.pause();
    const started = performance.now();
    const write = await api(current.base, '/api/tenancy/tenants/', {
      method: 'POST', body: JSON.stringify([1, 2].map((n) => ({ name: `Held ${n}`, slug: `held-${n}` }))),
    });
    // The response does not wait for the enqueue: the sweep enqueues again once the queue answers.
    expect(write.status).toBe(201);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(receiver.requests).toHaveLength(0);
    relay.resume();
    await deliveredOnce(['Held 1', 'Held 2']);
  }, STARTS_WITHIN + 60_000);
});

describe('a recreated database on the same queue', () => {
  it('has its deliveries sent, though their ids are those of deliveries the queue already ran', async () => {
    // A fresh database (delivery ids start at 1 again) on the queue the tests above used, which it alone works now.
    await kill(current);
    const fresh = await startServer({ settings: { REDIS_PREFIX: env.REDIS_PREFIX } });
    try {
      const { body: webhook } = await fresh.post('/api/extras/webhooks/', { name: 'again', payload_url: `${receiver.url}/` });
      await fresh.post('/api/extras/event-rules/', {
        name: 'tenants', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: webhook.id,
      });
      await fresh.post('/api/tenancy/tenants/', { name: 'Reborn', slug: 'reborn' });
      await until(() => receiver.requests.length === 1, 20_000, 'the delivery');
      expect(receiver.requests[0].headers['x-patchbay-delivery']).toBe('1');
    } finally {
      await fresh.close();
    }
  }, 60_000);
});

