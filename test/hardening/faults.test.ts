import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import pg from 'pg';
import { ModelWatch } from '../../kernel/events/watch.js';
import { createLogger } from '../../kernel/base/log.js';
import { Receiver } from '../helpers/receiver.js';
import { freshDatabase, startServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';
import { tcpRelay } from '../helpers/tcp-relay.js';

/** Opens a socket to `base`, runs `send` on it, and resolves with the seconds until the server closed it. */
function closedAfter(base: string, send: (socket: ReturnType<typeof connect>) => NodeJS.Timeout): Promise<{ seconds: number; answer: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((ok) => {
    const started = performance.now();
    let answer = '';
    const socket = connect(Number(port), hostname, () => {
      const timer = send(socket);
      socket.on('data', (d) => (answer += d.toString()));
      socket.on('close', () => {
        clearInterval(timer);
        ok({ seconds: (performance.now() - started) / 1000, answer });
      });
    });
    socket.on('error', () => undefined);
  });
}

describe('faults', () => {
  it('closes connections that trickle their headers or their body past the time limits', async () => {
    const t = await startServer({ settings: { HEADERS_TIMEOUT: 1, REQUEST_TIMEOUT: 2 } });
    try {
      const [headers, body] = await Promise.all([
        // A header line every 300 ms, never the blank line that ends them.
        closedAfter(t.base, (s) => {
          s.write('GET /api/ HTTP/1.1\r\nHost: 127.0.0.1\r\n');
          return setInterval(() => s.write('X-Slow: yes\r\n'), 300);
        }),
        // Complete headers, then a byte of the promised body every 300 ms.
        closedAfter(t.base, (s) => {
          s.write('POST /api/tenancy/tenants/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
          return setInterval(() => s.write(' '), 300);
        }),
      ]);
      expect(headers.seconds).toBeLessThan(4);
      expect(body.seconds).toBeLessThan(5);
      expect(headers.answer).toMatch(/^HTTP\/1\.1 408/);
      // Meanwhile and after, others are served.
      expect((await t.get('/api/')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('answers 503 with a JSON detail while PostgreSQL is unreachable, writes nothing half, and recovers by itself', async () => {
    const url = new URL(await freshDatabase());
    const relay = await tcpRelay(inject('pgAdminUrl'));
    url.hostname = relay.host;
    url.port = String(relay.port);
    const t = await startServer({ settings: { DATABASE_URL: url.toString() } });
    try {
      expect((await t.post('/api/tenancy/tenants/', { name: 'Before', slug: 'before' })).status).toBe(201);
      relay.cut();
      const read = await t.get('/api/tenancy/tenants/');
      expect(read.status).toBe(503);
      expect(read.body).toEqual({ detail: 'The database is unavailable; try again in a few seconds.', request_id: read.headers.get('x-request-id') });
      expect(read.headers.get('retry-after')).toBe('5');
      const write = await t.post('/api/tenancy/tenants/', [{ name: 'During', slug: 'during' }, { name: 'During 2', slug: 'during-2' }]);
      expect(write.status).toBe(503);
      relay.restore();
      const after = await t.get('/api/tenancy/tenants/?ordering=name');
      expect(after.status).toBe(200);
      expect(after.body.results.map((r: { name: string }) => r.name)).toEqual(['Before']);
    } finally {
      await t.close();
      await relay.close();
    }
  });

  it('cancels a statement running past STATEMENT_TIMEOUT with a 503, writing nothing, and serves the next request', async () => {
    const t = await startServer({ settings: { STATEMENT_TIMEOUT: 1 } });
    const blocker = new pg.Client({ connectionString: t.server.db.url });
    await blocker.connect();
    try {
      // Another session holds the table: the request's statements wait for it until their time is up.
      await blocker.query('begin');
      await blocker.query('lock table tenancy_tenant in access exclusive mode');
      const started = performance.now();
      const [read, write] = await Promise.all([
        t.get('/api/tenancy/tenants/'),
        t.post('/api/tenancy/tenants/', [{ name: 'Late', slug: 'late' }, { name: 'Late 2', slug: 'late-2' }]),
      ]);
      expect((performance.now() - started) / 1000).toBeLessThan(8);
      for (const reply of [read, write]) {
        expect(reply.status).toBe(503);
        expect(reply.body.detail).toBe('The database took too long to answer this request; it was cancelled and nothing was changed.');
        expect(reply.text).not.toMatch(/select|insert|tenancy_tenant/i);
      }
      await blocker.query('rollback');
      expect((await t.get('/api/tenancy/tenants/')).body.count).toBe(0);
      expect((await t.post('/api/tenancy/tenants/', { name: 'On time', slug: 'on-time' })).status).toBe(201);
    } finally {
      await blocker.end();
      await t.close();
    }
  });

  it('keeps serving and writing while Redis is down; the deliveries wait, recorded, and are sent once it is back', async () => {
    const receiver = new Receiver();
    await receiver.start();
    const relay = await tcpRelay(inject('redisUrl'));
    const t = await startServer({ settings: { REDIS_URL: `redis://${relay.host}:${relay.port}`, OUTBOX_SWEEP_SECONDS: 1 } });
    try {
      const { body: hook } = await t.post('/api/extras/webhooks/', { name: 'down', payload_url: `${receiver.url}/` });
      await t.post('/api/extras/event-rules/', {
        name: 'down', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: hook.id,
      });
      relay.cut();
      await until(async () => (await t.get('/api/status/')).body.queue.status === 'unavailable', 10_000, 'the status to show Redis down');
      const started = performance.now();
      for (const n of [1, 2, 3]) expect((await t.post('/api/tenancy/tenants/', { name: `Down ${n}`, slug: `down-${n}` })).status).toBe(201);
      // Not held back by the queue: each write answers without waiting for Redis.
      expect((performance.now() - started) / 1000).toBeLessThan(3);
      expect((await t.get('/api/tenancy/tenants/')).body.count).toBe(3);
      // What only Redis holds is unavailable, said at once rather than after a wait.
      const tasks = await t.get('/api/core/background-tasks/');
      expect([tasks.status, tasks.body.detail]).toEqual([503, 'The queue (Redis) is unavailable; try again in a few seconds.']);
      expect(receiver.requests).toHaveLength(0);
      // Sweeps that find Redis still away leave the deliveries for the next.
      await new Promise((ok) => setTimeout(ok, 2500));
      relay.restore();
      await until(() => receiver.requests.length === 3, 30_000, 'the three deliveries');
      const names = receiver.requests.map((r) => (JSON.parse(r.text) as { data: { name: string } }).data.name).sort();
      expect(names).toEqual(['Down 1', 'Down 2', 'Down 3']);
      expect((await t.get('/api/status/')).body.queue.status).toBe('ok');
    } finally {
      await t.close();
      await relay.close();
      await receiver.stop();
    }
  }, 60_000);

  it.each([
    // A first start leaves the system jobs waiting in the database (housekeeping, scheduled a day ahead).
    ['a database whose jobs wait', true],
    // The system jobs are recorded by this start (it crashed, enqueueing them, with a stack).
    ['a new database', false],
  ])('starts on %s while Redis is down, and queues the jobs waiting once it answers', async (_title, started) => {
    const first = started ? await startServer() : undefined;
    await first?.close();
    const relay = await tcpRelay(inject('redisUrl'));
    relay.cut();
    const t = await startServer({ joining: first, settings: { REDIS_URL: `redis://${relay.host}:${relay.port}` } });
    try {
      expect((await t.post('/api/tenancy/tenants/', { name: 'Started', slug: 'started' })).status).toBe(201);
      expect((await t.get('/api/status/')).body.queue.status).toBe('unavailable');
      relay.restore();
      await until(async () => (await t.get('/api/core/background-tasks/?status=scheduled')).body.results?.length > 0, 30_000, 'the waiting jobs to be queued');
    } finally {
      await t.close();
      await relay.close();
    }
  }, 60_000);

  it('listens again for other processes\' changes once PostgreSQL is back, and reloads what it may have missed', async () => {
    const url = new URL(await freshDatabase());
    const direct = url.toString();
    const relay = await tcpRelay(inject('pgAdminUrl'));
    url.hostname = relay.host;
    url.port = String(relay.port);
    const watch = new ModelWatch(createLogger('error'));
    const heard: string[] = [];
    watch.watch('extras.eventrule', () => void heard.push('reload'));
    const notify = async () => {
      const client = new pg.Client({ connectionString: direct });
      await client.connect();
      await client.query("select pg_notify('patchbay_models', 'another-process extras.eventrule')");
      await client.end();
    };
    try {
      await watch.listen(url.toString());
      await notify();
      await until(() => heard.length === 1, 5000, 'the first notice');
      relay.cut();
      // A notice while it cannot listen is lost; what it missed is reloaded once it listens again.
      await notify();
      relay.restore();
      await until(() => heard.length === 2, 10_000, 'the reload after the outage');
      await notify();
      await until(() => heard.length === 3, 5000, 'a notice after the outage');
    } finally {
      await watch.close();
      await relay.close();
    }
  });
});
