import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { Body } from '../helpers/server.js';
import { until } from '../helpers/wait.js';
import { adminToken, npmStart, pathWithout, printOutputOnFailure, removeData, stopAll, type NpmStart } from './harness.js';
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
 * way at the kill (the receiver had it and had not answered), and then under the same delivery id. Then, on the server
 * started again: a tracked job that kills the process running it each time ends, and a replaced process uses the
 * queue its supervisor chose.
 */
describe.each([
  ['without redis-server', false],
  ['with redis-server', true],
])('npm start %s, killed and crashed', (_name, withRedis) => {
  const receiver = new SlowReceiver(400);
  // Without redis-server: a PATH that lacks it, to which it can be added later (as an install would).
  const hidden = withRedis ? undefined : pathWithout('redis-server');
  const path = { path: hidden?.path ?? process.env.PATH! };
  const env = { JOB_LOCK_SECONDS: '2', JOB_ATTEMPTS: '2', JOB_RETRY_DELAY: '1000', WEBHOOK_RETRY_DELAY: '1000', OUTBOX_SWEEP_SECONDS: '2', PLUGINS: './test/fixtures/plugins/chores.ts' };
  let server: NpmStart;
  let token: string;
  const auth = () => ({ Authorization: `Token ${token}`, Accept: 'application/json' });
  printOutputOnFailure(() => server);
  afterAll(async () => {
    await server?.stop();
    await receiver.stop();
    if (server) removeData(server.dataDir);
  }, 60_000);

  it('delivers every event, and twice only what was in flight at the kill', async () => {
    await receiver.start();
    const first = await npmStart({ path: path.path, env });
    token = await adminToken(first);
    const api = (method: string, url: string, body?: unknown) => fetch(first.base + url, {
      method, body: JSON.stringify(body), headers: { ...auth(), 'Content-Type': 'application/json' },
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

    server = await npmStart({ path: path.path, env, dataDir: first.dataDir, port: first.port });
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

    const log = JSON.parse((await freshGet(server.base, '/api/extras/webhook-deliveries/?status=delivered&limit=100', auth())).body) as Body;
    expect(log.count).toBe(EVENTS);
  }, 300_000);

  it('runs a tracked job that kills its process JOB_ATTEMPTS times, then ends it errored saying why; the others serve on', async () => {
    // A connection to a process the job kills is cut: asked again, over a fresh one.
    const get = async (url: string) => JSON.parse((await freshGet(server.base, url, auth())).body) as Body;
    const [tenant] = (await get('/api/tenancy/tenants/?slug=t1')).results;
    const made = await fetch(`${server.base}/api/plugins/chores/audits/`, {
      method: 'POST', body: JSON.stringify({ tenant: tenant.id, outcome: 'crash' }), headers: { ...auth(), 'Content-Type': 'application/json' },
    });
    const job = (await made.json()) as Body;
    const exitedBefore = server.output().match(/Worker \d+ exited/g)?.length ?? 0;
    await until(async () => (await get(`/api/core/jobs/${job.id}/`).catch(() => undefined))?.status.value === 'errored', 120_000, 'the job errored');
    const ended = await get(`/api/core/jobs/${job.id}/`);
    const why = (n: number) => `Attempt ${n} of 2 did not finish: the process running it ended (killed, out of memory) or stopped answering.`;
    expect(ended.error).toBe(why(2));
    // What a run logs is kept when it ends, which these never did: the log holds why each ended.
    expect(ended.log_entries.map((e: { message: string }) => e.message)).toEqual([why(1), why(2)]);
    // It ran twice, killing a process each time; each was replaced, and nothing runs it again.
    await until(() => server.workers().length === 2, 30_000, 'two workers again');
    await new Promise((r) => setTimeout(r, 5000));
    expect((server.output().match(/Worker \d+ exited \(SIGKILL\)/g)?.length ?? 0) - exitedBefore).toBe(2);
    expect(server.output().match(/Worker \d+ exited/g)?.length ?? 0).toBe(exitedBefore + 2);
    expect((await freshGet(server.base, '/api/status/', auth())).status).toBe(200);
  }, 240_000);

  it('replaces a process with one that uses the queue its supervisor chose, even once redis-server appeared', async () => {
    hidden?.reveal();
    const [victim] = server.workers();
    process.kill(victim, 'SIGKILL');
    await until(() => new RegExp(`serving in place of ${victim}`).test(server.output()), 60_000, 'the replacement');
    // Only the supervisor starts (or attaches to) an embedded Redis: once with redis-server, never without (however it
    // appeared since).
    expect(server.output().match(/Started an embedded Redis|Using the embedded Redis/g)?.length ?? 0).toBe(withRedis ? 1 : 0);
    for (let i = 0; i < 10; i++) {
      const status = JSON.parse((await freshGet(server.base, '/api/status/', auth())).body) as { queue: { backend: string } };
      expect(status.queue.backend).toBe(withRedis ? 'redis' : 'postgresql');
    }
  }, 120_000);
});
