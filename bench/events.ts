import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { keyDigest } from '../kernel/auth/tokens.js';
import type { Settings } from '../kernel/config/settings.js';
import { createServer, type PatchbayServer } from '../kernel/server.js';
import { builtinPlugins } from '../plugins/index.js';
import { spawnManage } from '../test/helpers/cli.js';
import { Receiver } from '../test/helpers/receiver.js';
import { startRedis } from '../test/helpers/services.js';
import { until } from '../test/helpers/wait.js';
import { measure, measureCount, report, type Measurement } from './harness.js';

/** Tenants of the end-to-end bulk create, rounds of it (the median round is reported), single creates for the idle latency. */
const [BULK, ROUNDS, SINGLES] = [1000, 3, 50];
const DATABASE = 'patchbay_bench_events';

/** One way of running the queue: a server's settings, and whether a `manage worker` process delivers instead. */
interface Setup {
  name: string;
  kind: 'postgresql' | 'redis';
  settings: Partial<Settings>;
  /** Start the server as `npm start` does (without REDIS_URL it then starts its own Redis under DATA_DIR). */
  startsRedis?: boolean;
  worker?: boolean;
}

/** A delivery as the receiver got it. */
interface Receipt {
  /** Wall clock, to compare with the event's timestamp. */
  at: number;
  /** performance.now(), for durations. */
  t: number;
  timestamp: string;
  name: string;
  delivery: string;
}

/** A tenant as the bulk benches send it: a group by slug, two tags, a custom field. */
interface TenantBody {
  name: string;
  slug: string;
  group: { slug: string };
  tags: number[];
  custom_fields: { cost: number };
}

export interface EndToEnd {
  name: string;
  /** Events delivered a second: BULK over the time from sending the POST to the last delivery's arrival. */
  perSecond: number;
  /** How long the POST took to answer (the rules matched, the deliveries recorded and enqueued), ms. */
  post: number;
  /** From sending the POST to the first and the last delivery, ms. */
  first: number;
  last: number;
  /** Commit-to-delivery over every round's deliveries, ms. */
  p50: number;
  p99: number;
  /** Commit-to-delivery of single creates, each sent after the previous one was delivered, ms. */
  idle: { p50: number; p99: number };
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/**
 * Webhooks and event rules end to end, on a database of their own in `adminUrl`'s cluster, for each way of running
 * the queue: bull on a Redis (the server works the jobs; or a `manage worker` process does), bull on the Redis the
 * server starts itself when serving without REDIS_URL (`npm start`), and the PostgreSQL queue (no Redis at all).
 *
 * - Events/s: a webhook to a local receiver and an enabled rule on tenant creation; one bulk POST of BULK tenants,
 *   timed from sending it until the receiver has all BULK deliveries (median of ROUNDS rounds).
 * - Commit-to-delivery latency: the receiver's clock when a delivery arrived minus the event's `timestamp` (taken
 *   in the write's transaction, just before its commit), p50 and p99 over the rounds' deliveries; and the same for
 *   SINGLES creates one at a time, each sent once the previous one was delivered (an idle pipeline).
 * - What the outbox adds to a write: bulk creates of 100 tenants (4 clients, `seconds`), without a rule (the
 *   baseline) and with the rule enabled. Where the server delivers, its deliveries yield to the writes (50 a second
 *   while they run, `RequestLoad`) and the rest go once they ended; with a worker, none runs yet.
 */
export async function eventsBench(adminUrl: string, seconds: number): Promise<void> {
  const url = await freshDatabase(adminUrl);
  const redis = await startRedis();
  const dataDir = mkdtempSync(join(tmpdir(), 'patchbay-bench-events-'));
  const receiver = new Receiver();
  const receipts: Receipt[] = [];
  receiver.answer = (req) => {
    const body = JSON.parse(req.text) as { timestamp: string; data: { name: string } };
    receipts.push({ at: Date.now(), t: performance.now(), timestamp: body.timestamp, name: body.data.name, delivery: String(req.headers['x-patchbay-delivery']) });
    return 200;
  };
  await receiver.start();
  const setups: Setup[] = [
    { name: 'PostgreSQL queue (no Redis)', kind: 'postgresql', settings: {} },
    { name: 'bull on Redis, the server delivers', kind: 'redis', settings: { REDIS_URL: redis.url, REDIS_PREFIX: 'bench-server' } },
    { name: 'bull on Redis, a manage worker delivers', kind: 'redis', settings: { REDIS_URL: redis.url, REDIS_PREFIX: 'bench-worker', RUN_JOBS: false }, worker: true },
    { name: 'bull on the Redis npm start embeds', kind: 'redis', settings: { DATA_DIR: dataDir }, startsRedis: true },
  ];
  const key = randomBytes(20).toString('hex');
  const auth = { Authorization: `Token ${key}` };
  let fixtures: { tags: number[]; rule: number } | undefined;
  let serial = 0;
  const tenants = (count: number): TenantBody[] =>
    Array.from({ length: count }, () => {
      const n = serial++;
      return { name: `Event ${n}`, slug: `event-${n}`, group: { slug: `event-group-${(n % 10) + 1}` }, tags: fixtures!.tags, custom_fields: { cost: n } };
    });
  const results: EndToEnd[] = [];
  const costs: [string, Measurement[]][] = [];
  let direct: Measurement | undefined;
  try {
    // The baseline: the same number of webhook-shaped POSTs sent straight to the receiver, JOB_CONCURRENCY at once.
    direct = await measureCount('POSTs straight to the receiver (baseline)', receiver.url, BULK, {
      concurrency: 10, warmup: 0, unit: 'events', post: { status: 200, body: () => ({ event: 'created', timestamp: new Date().toISOString(), data: { name: 'direct' } }) },
    });
    receipts.length = 0;
    for (const setup of setups) {
      const server = await createServer({
        builtins: builtinPlugins, env: { PATCHBAY_CONFIG: '' }, startsRedis: setup.startsRedis,
        settings: { DATABASE_URL: url, PORT: 0, LOG_LEVEL: 'error', SECRET_KEY: 'bench', ...setup.settings },
      });
      let worker: ChildProcess | undefined;
      try {
        if (server.queue.kind !== setup.kind) throw new Error(`${setup.name}: the server's queue is ${server.queue.kind}, not ${setup.kind}`);
        const base = await server.listen();
        const db = server.db.knex;
        const send = async <T,>(method: string, path: string, body?: unknown): Promise<T> => {
          const res = await fetch(`${base}${path}`, { method, body: JSON.stringify(body), headers: { ...auth, 'Content-Type': 'application/json' } });
          if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
          return (await res.json()) as T;
        };
        fixtures ??= await createFixtures(server, key, send, receiver.url);
        const rule = (enabled: boolean) => send('PATCH', `/api/extras/event-rules/${fixtures!.rule}/`, { enabled });
        const deliveries = new Deliveries(server);

        // What the outbox adds to a write. With a worker, none runs yet: the deliveries wait in Redis, so the write's
        // own cost is measured, and the worker then delivers the backlog before the end-to-end runs.
        const post = { body: () => tenants(100), status: 201 };
        const path = `${base}/api/tenancy/tenants/`;
        // Untimed first, the same writes with the rule (delivered, but where no worker runs yet): the mode measured
        // first would otherwise pay for compiling the event path (every server runs in this process) and for the
        // fresh tables' first growth. A worker's jobs whose deliveries are gone by then find nothing to send.
        await rule(true);
        await measure('warm-up', path, Math.min(seconds, 2), auth, 4, post);
        if (!setup.worker) await deliveries.drained(receipts);
        await cleanUp(db);
        await rule(false);
        const without = await measure('Patchbay POST (100), no event rule (baseline)', path, seconds, auth, 4, post);
        await cleanUp(db);
        await rule(true);
        const withRule = await measure(`with an enabled rule${setup.worker ? ' (no worker running)' : ''}`, path, seconds, auth, 4, post);
        costs.push([setup.name, [without, withRule]]);
        if (setup.worker) worker = await startWorker(server);
        await deliveries.drained(receipts);
        await cleanUp(db);

        // Warm-up: a small bulk create, delivered.
        receipts.length = 0;
        await send('POST', '/api/tenancy/tenants/', tenants(10));
        await deliveries.drained(receipts);
        await cleanUp(db);

        const rounds: { perSecond: number; post: number; first: number; last: number; latencies: number[] }[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          receipts.length = 0;
          const bodies = tenants(BULK);
          const start = performance.now();
          const made = await send<unknown[]>('POST', '/api/tenancy/tenants/', bodies);
          const answered = performance.now() - start;
          if (made.length !== BULK) throw new Error(`${setup.name}: the bulk create made ${made.length} tenants, not ${BULK}`);
          await until(() => receipts.length >= BULK, 600_000, `${BULK} deliveries`);
          checkReceipts(setup.name, receipts, bodies);
          const times = receipts.map((r) => r.t - start);
          rounds.push({
            perSecond: BULK / (Math.max(...times) / 1000), post: answered, first: Math.min(...times), last: Math.max(...times),
            latencies: receipts.map((r) => r.at - Date.parse(r.timestamp)),
          });
          await deliveries.drained(receipts);
          await cleanUp(db);
        }
        const idle: number[] = [];
        for (let i = 0; i < SINGLES; i++) {
          receipts.length = 0;
          await send('POST', '/api/tenancy/tenants/', tenants(1)[0]);
          await until(() => receipts.length >= 1, 60_000, 'a delivery');
          idle.push(receipts[0].at - Date.parse(receipts[0].timestamp));
        }
        await deliveries.drained(receipts);
        await cleanUp(db);

        const mid = rounds.find((r) => r.perSecond === median(rounds.map((x) => x.perSecond)))!;
        const latencies = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
        idle.sort((a, b) => a - b);
        results.push({
          name: setup.name, perSecond: mid.perSecond, post: mid.post, first: mid.first, last: mid.last,
          p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), idle: { p50: percentile(idle, 0.5), p99: percentile(idle, 0.99) },
        });
        const failed = await deliveries.notDelivered();
        if (failed) throw new Error(`${setup.name}: ${failed} deliveries did not deliver on their first attempt`);
        await rule(false);
      } finally {
        if (worker) await stopWorker(worker);
        await server.close();
      }
    }
  } finally {
    await receiver.stop();
    await redis.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase(adminUrl);
  }

  const ms = (n: number) => `${n.toFixed(0)} ms`;
  process.stdout.write(`\nEvents end to end: ${BULK} tenants in one bulk POST → ${BULK} webhook deliveries to a local receiver (median of ${ROUNDS} rounds)\n`);
  for (const r of results) {
    process.stdout.write(
      `  ${r.name.padEnd(44)} ${r.perSecond.toFixed(1).padStart(9)} events/s  POST answered in ${ms(r.post)}; deliveries from ${ms(r.first)} to ${ms(r.last)}`
        + ` (${(BULK / ((r.last - r.first) / 1000)).toFixed(0)}/s)\n`,
    );
  }
  process.stdout.write(`\nCommit-to-delivery latency (receipt − the event's timestamp): p50 / p99\n`);
  process.stdout.write(`  ${''.padEnd(44)} ${`bulk of ${BULK} (all rounds)`.padStart(24)} ${`${SINGLES} single creates, one at a time`.padStart(36)}\n`);
  for (const r of results) {
    process.stdout.write(`  ${r.name.padEnd(44)} ${`${ms(r.p50)} / ${ms(r.p99)}`.padStart(24)} ${`${ms(r.idle.p50)} / ${ms(r.idle.p99)}`.padStart(36)}\n`);
  }
  report(`Webhook deliveries: one bulk POST of ${BULK} tenants until the receiver has every delivery (median of ${ROUNDS} rounds)`, [
    direct!, ...results.map((r): Measurement => ({ name: r.name, requests: BULK, seconds: BULK / r.perSecond, perSecond: r.perSecond, unit: 'events' })),
  ]);
  for (const [name, rows] of costs) report(`What the outbox adds: bulk create 100 tenants, ${name} (${seconds} s each, 4 clients)`, rows);
}

/** The webhook deliveries of the bench's database: waiting for the queue to empty, counting failures. */
class Deliveries {
  constructor(private readonly server: PatchbayServer) {}

  private async count(where: string): Promise<number> {
    const { rows } = (await this.server.db.knex.raw(`select count(*)::int as n from extras_webhookdelivery where ${where}`)) as { rows: { n: number }[] };
    return rows[0].n;
  }

  /**
   * Until no delivery waits in the outbox or is pending (each one's status is written after the receiver answered
   * it): no job is left with anything to write.
   */
  async drained(receipts: Receipt[]): Promise<void> {
    const waiting = async () => {
      const { rows } = (await this.server.db.knex.raw(`select count(*)::int as n from extras_webhookoutbox`)) as { rows: { n: number }[] };
      return rows[0].n + (await this.count(`status = 'pending'`));
    };
    await until(async () => (await waiting()) === 0, 600_000, `the pending deliveries (${receipts.length} received so far)`);
  }

  /** Deliveries that failed or took more than one attempt. */
  notDelivered(): Promise<number> {
    return this.count(`status <> 'delivered' or jsonb_array_length(attempts) > 1`);
  }
}

/** Each tenant's event arrived once, under its own delivery id. */
function checkReceipts(name: string, receipts: Receipt[], bodies: TenantBody[]): void {
  const names = new Set(receipts.map((r) => r.name));
  const ids = new Set(receipts.map((r) => r.delivery));
  if (receipts.length !== bodies.length || names.size !== bodies.length || ids.size !== bodies.length || !bodies.every((b) => names.has(b.name))) {
    throw new Error(`${name}: ${receipts.length} deliveries for ${names.size} tenants under ${ids.size} delivery ids; ${bodies.length} tenants were created`);
  }
}

/** A superuser's token (as the main bench's), ten tenant groups, two tags, a custom field, the webhook and its rule (disabled). */
async function createFixtures(
  server: PatchbayServer, key: string, send: <T>(method: string, path: string, body?: unknown) => Promise<T>, receiverUrl: string,
): Promise<{ tags: number[]; rule: number }> {
  const db = server.db.knex;
  const [admin] = await db('users_user').insert({ username: 'bench', password: '!', is_superuser: true }).returning('id');
  await db('users_token').insert({ user_id: admin.id, key, key_digest: keyDigest(key), last_used: db.fn.now() });
  await send('POST', '/api/tenancy/tenant-groups/', Array.from({ length: 10 }, (_, i) => ({ name: `Event group ${i + 1}`, slug: `event-group-${i + 1}` })));
  const tags = await send<{ id: number }[]>('POST', '/api/extras/tags/', [{ name: 'Event A', slug: 'event-a' }, { name: 'Event B', slug: 'event-b' }]);
  await send('POST', '/api/extras/custom-fields/', { name: 'cost', type: 'integer', object_types: ['tenancy.tenant'] });
  const webhook = await send<{ id: number }>('POST', '/api/extras/webhooks/', { name: 'bench receiver', payload_url: `${receiverUrl}/` });
  const rule = await send<{ id: number }>('POST', '/api/extras/event-rules/', {
    name: 'tenants created', object_types: ['tenancy.tenant'], event_types: ['object_created'], enabled: false,
    action_object_type: 'extras.webhook', action_object_id: webhook.id,
  });
  return { tags: tags.map((t) => t.id), rule: rule.id };
}

/** Removes what a measurement created: tenants (by SQL, so no events) and deliveries (ids keep growing: bull's job ids are made of them). */
async function cleanUp(db: PatchbayServer['db']['knex']): Promise<void> {
  await db.raw(`delete from tenancy_tenant where slug like 'event-%'`);
  // Jobs whose deliveries are gone (recorded or still in the outbox) find nothing to send.
  await db.raw(`delete from extras_webhookoutbox`);
  await db.raw(`delete from extras_webhookdelivery`);
}

/** A `manage worker` sharing the server's database, Redis and prefix; resolves once it has announced itself in Redis. */
async function startWorker(server: PatchbayServer): Promise<ChildProcess> {
  const { settings } = server;
  const child = spawnManage(['worker'], {
    DATABASE_URL: server.db.url, REDIS_URL: settings.REDIS_URL!, REDIS_PREFIX: settings.REDIS_PREFIX, SECRET_KEY: 'bench', LOG_LEVEL: 'warn',
  });
  let said = '';
  child.stderr!.on('data', (d: Buffer) => (said = (said + d.toString()).slice(-2000)));
  child.stdout!.resume();
  await until(async () => {
    if (child.exitCode !== null) throw new Error(`manage worker exited (${child.exitCode}): ${said}`);
    return (await server.queue.workers()).length > 0;
  }, 60_000, 'the worker');
  return child;
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGTERM');
  await exited;
}

/** A new, empty database in the cluster (dropped first if a run that died left it). */
async function freshDatabase(adminUrl: string): Promise<string> {
  await dropDatabase(adminUrl);
  await admin(adminUrl, `create database "${DATABASE}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

async function dropDatabase(adminUrl: string): Promise<void> {
  await admin(adminUrl, `drop database if exists "${DATABASE}" with (force)`);
}

async function admin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
