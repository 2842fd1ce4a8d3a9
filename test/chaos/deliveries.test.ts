import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { Body } from '../helpers/server.js';
import { until } from '../helpers/wait.js';
import { adminToken, npmStart, pathWithout, removeData, stopAll, type NpmStart } from './harness.js';
import { freshGet } from './sockets.js';

/** One request a receiver got: its delivery and event, when, and whether its answer reached the sender. */
interface Arrival {
  delivery: string;
  slug: string;
  at: number;
  answered: boolean;
}

/** A webhook receiver that answers 200 after `delayMs`, recording every arrival and whether its answer was taken. */
class SlowReceiver {
  readonly arrivals: Arrival[] = [];
  private server?: Server;
  url = '';

  constructor(private readonly delayMs: number) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { slug: string } };
        const arrival: Arrival = { delivery: String(req.headers['x-patchbay-delivery']), slug: body.data.slug, at: Date.now(), answered: false };
        this.arrivals.push(arrival);
        res.on('finish', () => (arrival.answered = true));
        setTimeout(() => res.writeHead(200).end('ok'), this.delayMs);
      });
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((ok) => this.server?.close(ok));
  }
}

const EVENTS = 40;

// A test that timed out leaves its servers running: they are stopped here.
afterAll(() => stopAll(), 60_000);

/**
 * At-least-once, and once but for a crash: `npm start` (two server processes) killed outright while a slow receiver
 * takes 40 deliveries, then started again. Every event arrives; an event arrives twice only when the attempt was under
 * way at the kill (the receiver had it and had not answered), and then under the same delivery id.
 */
describe.each([
  ['without redis-server', false],
  ['with redis-server', true],
])('deliveries of npm start %s, killed mid-delivery', (_name, withRedis) => {
  const receiver = new SlowReceiver(400);
  const servers: NpmStart[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await receiver.stop();
    if (servers[0]) removeData(servers[0].dataDir);
  }, 60_000);

  it('delivers every event, and twice only what was in flight at the kill', async () => {
    await receiver.start();
    const path = withRedis ? process.env.PATH! : pathWithout('redis-server').path;
    const env = { JOB_LOCK_SECONDS: '3', OUTBOX_SWEEP_SECONDS: '2' };
    const first = await npmStart({ path, env });
    servers.push(first);
    const token = await adminToken(first);
    const api = (method: string, url: string, body?: unknown) => fetch(first.base + url, {
      method, body: JSON.stringify(body), headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const { body: hook } = await api('POST', '/api/extras/webhooks/', { name: 'slow', payload_url: receiver.url });
    await api('POST', '/api/extras/event-rules/', {
      name: 'tenants', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: hook.id,
    });
    const created = await api('POST', '/api/tenancy/tenants/', Array.from({ length: EVENTS }, (_, i) => ({ name: `T${i}`, slug: `t${i}` })));
    expect(created.status).toBe(201);

    await until(() => receiver.arrivals.length >= 6, 30_000, 'deliveries under way');
    await first.kill();
    const killedAt = Date.now();
    const inFlight = new Set(receiver.arrivals.filter((a) => !a.answered).map((a) => a.delivery));
    const beforeRestart = receiver.arrivals.length;
    expect(beforeRestart).toBeLessThan(EVENTS);

    const second = await npmStart({ path, env, dataDir: first.dataDir, port: first.port });
    servers.push(second);
    await until(() => new Set(receiver.arrivals.filter((a) => a.answered).map((a) => a.slug)).size === EVENTS, 90_000, 'every event delivered');
    await new Promise((r) => setTimeout(r, 2000));

    const byDelivery = new Map<string, Arrival[]>();
    for (const arrival of receiver.arrivals) byDelivery.set(arrival.delivery, [...(byDelivery.get(arrival.delivery) ?? []), arrival]);
    expect(byDelivery.size).toBe(EVENTS);
    for (const [delivery, arrivals] of byDelivery) {
      if (arrivals.length === 1) continue;
      // A repeat: its first attempt reached the receiver before the kill and its answer did not reach the server (or
      // arrived in the moment before the kill, before the server could record it).
      expect(arrivals, `delivery ${delivery}`).toHaveLength(2);
      expect(inFlight.has(delivery) || arrivals[0].at > killedAt - 1000, `delivery ${delivery} repeated though it was not in flight`).toBe(true);
    }
    const repeated = [...byDelivery.values()].filter((a) => a.length > 1).length;
    console.log(`${withRedis ? 'Redis' : 'PostgreSQL'} queue: ${beforeRestart} arrivals before the kill, ${inFlight.size} in flight; ${repeated} delivered twice`);

    const log = await fetch(`${second.base}/api/extras/webhook-deliveries/?status=delivered&limit=100`, { headers: { Authorization: `Token ${token}`, Accept: 'application/json' } });
    expect(((await log.json()) as { count: number }).count).toBe(EVENTS);
  }, 240_000);
});

describe('a worker replaced after redis-server appeared', () => {
  it('uses the queue its supervisor chose: only the supervising process starts embedded services', async () => {
    const path = pathWithout('redis-server');
    const server = await npmStart({ path: path.path });
    try {
      path.reveal();
      const [victim] = server.workers();
      process.kill(victim, 'SIGKILL');
      await until(() => new RegExp(`serving in place of ${victim}`).test(server.output()), 30_000, 'the replacement');
      expect(server.output()).not.toContain('Started an embedded Redis');
      const token = await adminToken(server);
      for (let i = 0; i < 10; i++) {
        const status = JSON.parse((await freshGet(server.base, '/api/status/', { Authorization: `Token ${token}` })).body) as { queue: { backend: string } };
        expect(status.queue.backend).toBe('postgresql');
      }
    } finally {
      await server.stop();
      removeData(server.dataDir);
    }
  }, 300_000);
});

describe('a tracked job that kills the process running it, every time', () => {
  it('runs JOB_ATTEMPTS times, then ends errored saying why; the processes it killed are replaced, the others serve on', async () => {
    const server = await npmStart({
      path: pathWithout('redis-server').path,
      env: { PLUGINS: './test/fixtures/plugins/chores.ts', JOB_LOCK_SECONDS: '2', JOB_ATTEMPTS: '2' },
    });
    try {
      const token = await adminToken(server);
      const api = (method: string, url: string, body?: unknown) => fetch(server.base + url, {
        method, body: JSON.stringify(body), headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Body }));
      const { body: tenant } = await api('POST', '/api/tenancy/tenants/', { name: 'Crashy', slug: 'crashy' });
      const { body: job } = await api('POST', '/api/plugins/chores/audits/', { tenant: tenant.id, outcome: 'crash' });
      // A connection to a process the job kills is cut: asked again, over a fresh one.
      const ended = async () => JSON.parse((await freshGet(server.base, `/api/core/jobs/${job.id}/`, { Authorization: `Token ${token}` })).body) as Body;
      await until(async () => (await ended().catch(() => undefined))?.status.value === 'errored', 90_000, 'the job errored');
      const final = await ended();
      expect(final.error).toBe('Attempt 2 of 2 did not finish: the process running it ended (killed, out of memory) or stopped answering.');
      // What a run logs is kept when it ends, which these never did: the log holds why each ended.
      expect(final.log_entries.map((e: { message: string }) => e.message)).toEqual([1, 2].map((n) => `Attempt ${n} of 2 did not finish: the process running it ended (killed, out of memory) or stopped answering.`));
      // It ran twice, killing a process each time; each was replaced, and nothing runs it again.
      expect(server.output().match(/Worker \d+ exited \(SIGKILL\)/g)).toHaveLength(2);
      await new Promise((r) => setTimeout(r, 6000));
      expect(server.output().match(/Worker \d+ exited/g)).toHaveLength(2);
      expect(server.workers()).toHaveLength(2);
      expect((await freshGet(server.base, '/api/status/', { Authorization: `Token ${token}` })).status).toBe(200);
    } finally {
      await server.stop();
      removeData(server.dataDir);
    }
  }, 300_000);
});
