import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@patchbay/embedded';
import { manage, spawnManage } from '../helpers/cli.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';

/** The server runs no jobs: `manage worker` processes deliver, sharing its database and Redis queue. */
let t: TestServer;
const receiver = new Receiver();
const workers: ChildProcess[] = [];

function startWorker(): ChildProcess {
  const { settings } = t.server;
  const child = spawnManage(['worker'], {
    DATABASE_URL: t.server.db.url, REDIS_URL: settings.REDIS_URL!, REDIS_PREFIX: settings.REDIS_PREFIX,
    SECRET_KEY: 'test-secret', JOB_LOCK_SECONDS: '2', JOB_CONCURRENCY: '2', WEBHOOK_RETRY_DELAY: '100', LOG_LEVEL: 'warn',
  });
  workers.push(child);
  return child;
}

beforeAll(async () => {
  await receiver.start();
  t = await startServer({ settings: { RUN_JOBS: false } });
  const { body: webhook } = await t.post('/api/extras/webhooks/', { name: 'to receiver', payload_url: `${receiver.url}/` });
  await t.post('/api/extras/event-rules/', {
    name: 'tenants', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: webhook.id,
  });
});
afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await t?.close();
  await receiver.stop();
});

describe('manage worker', () => {
  it('delivers what the server enqueued; a worker killed mid-delivery loses nothing and the next delivers each event once', async () => {
    // The first two deliveries (the worker sends two at once) hang at the receiver until their worker is killed.
    let release: (() => void) | undefined;
    const hung = new Promise<void>((ok) => (release = ok));
    const hungDeliveries: string[] = [];
    receiver.answer = async (req) => {
      const name = JSON.parse(req.text).data.name;
      if ((name === 'T1' || name === 'T2') && release) {
        hungDeliveries.push(String(req.headers['x-patchbay-delivery']));
        if (hungDeliveries.length === 2) {
          release();
          release = undefined;
        }
        await new Promise((never) => setTimeout(never, 60_000));
      }
      return 200;
    };
    await t.post('/api/tenancy/tenants/', [1, 2, 3, 4, 5].map((n) => ({ name: `T${n}`, slug: `t${n}` })));
    const first = startWorker();
    await hung;
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const second = startWorker();
    await until(async () => (await t.get('/api/extras/webhook-deliveries/?status=delivered')).body.count === 5, 30_000, 'five deliveries');
    // The worker process is listed among the queue's workers (the server runs no jobs; the killed one drops out in 15 s).
    const listed = (await t.get('/api/core/background-workers/')).body.results.map((w: { pid: string }) => w.pid);
    expect(listed).toContain(String(second.pid));
    expect(listed).not.toContain(String(process.pid));
    // Each event was acknowledged (200) exactly once: the killed worker's requests never got their answers, and the
    // next worker sent them again with the same delivery ids (by which a receiver can tell a retry).
    const acknowledged = receiver.requests.map((r) => JSON.parse(r.text).data.name as string).sort();
    expect(acknowledged).toEqual(['T1', 'T2', 'T3', 'T4', 'T5']);
    for (const name of ['T1', 'T2']) {
      const again = receiver.requests.find((r) => JSON.parse(r.text).data.name === name)!;
      expect(hungDeliveries).toContain(String(again.headers['x-patchbay-delivery']));
    }
    // The killed attempts count, and the delivery log says why; the deliveries not sent yet at the kill have no such
    // attempt: one each.
    const { results } = (await t.get('/api/extras/webhook-deliveries/?status=delivered&limit=10')).body;
    const byId = new Map(results.map((d: { id: number; attempts: { attempt: number; error: string | null; status_code: number | null }[] }) => [String(d.id), d.attempts]));
    for (const id of hungDeliveries) {
      expect(byId.get(id)).toEqual([
        expect.objectContaining({ attempt: 1, status_code: null, error: 'The process sending attempt 1 ended before it finished (killed, out of memory, or stopped answering).' }),
        expect.objectContaining({ attempt: 2, status_code: 200, error: null }),
      ]);
    }
    expect([...byId].filter(([id]) => !hungDeliveries.includes(String(id))).map(([, attempts]) => (attempts as unknown[]).length)).toEqual([1, 1, 1]);
  }, 60_000);
});

describe('manage webhook_receiver', () => {
  it('prints each request and answers 200, listening on the loopback address unless told otherwise', async () => {
    const port = await freePort();
    const child = spawnManage(['webhook_receiver', '--port', String(port)]);
    workers.push(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await until(() => out.includes('Listening on'), 20_000);
    expect(out).toContain(`Listening on http://127.0.0.1:${port}/. Stop with CONTROL-C.`);
    const res = await fetch(`http://127.0.0.1:${port}/some/path`, { method: 'POST', headers: { 'X-Test': 'yes', 'Content-Type': 'application/json' }, body: '{"a": 1}' });
    expect(res.status).toBe(200);
    await until(() => out.includes('{"a": 1}'));
    expect(out).toMatch(/POST \/some\/path/);
    expect(out).toMatch(/X-Test: yes/);

    // A second receiver on the same port says so in one line, and which option changes it.
    const taken = await manage(['webhook_receiver', '--port', String(port)]);
    expect(taken).toMatchObject({ code: 1, stderr: `Port ${port} on 127.0.0.1 is taken: stop the program using it or choose another with --port N\n` });
    child.kill('SIGTERM');
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);

    expect(await manage(['webhook_receiver', '--port', 'http'])).toMatchObject({
      code: 2, stderr: '--port: "http" is not a port number (0 to 65535)\nSee: npm run -s manage -- webhook_receiver --help\n',
    });
    expect(await manage(['webhook_receiver', '--host', '192.0.2.1', '--port', '0'])).toMatchObject({
      code: 1, stderr: '192.0.2.1 is not an address of this machine: choose one with --host (0.0.0.0 for every interface)\n',
    });
  }, 60_000);
});
