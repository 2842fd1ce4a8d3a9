import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { freePort } from '@patchbay/embedded';
import { manage, spawnManage } from '../helpers/cli.js';
import { png } from '../helpers/png.js';
import { Receiver } from '../helpers/receiver.js';
import { freshDatabase, startServer } from '../helpers/server.js';
import { STARTS_WITHIN, until } from '../helpers/wait.js';

describe('several processes', () => {
  it('starting together on an empty database migrate it once: one applies every migration, the others wait and find none', async () => {
    const url = await freshDatabase();
    // A statement limit shorter than the migrations: neither they nor the wait for them are bound by it.
    const env = { DATABASE_URL: url, SECRET_KEY: 'shared', STATEMENT_TIMEOUT: '1', LOG_LEVEL: 'warn' };
    const runs = await Promise.all([1, 2, 3].map(() => manage(['migrate'], env)));
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(runs.map(() => [0, '']));
    const appliers = runs.filter((r) => r.stdout.startsWith('Applied '));
    expect(appliers).toHaveLength(1);
    expect(runs.filter((r) => r.stdout === 'No migrations to apply.\n')).toHaveLength(2);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('select name, count(*)::int as n from patchbay_migrations group by name');
      expect(rows.length).toBe(appliers[0].stdout.trim().split('\n').length);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      const types = await client.query('select count(*)::int as n, count(distinct (app_label, model))::int as d from core_objecttype');
      expect(types.rows[0].n).toBe(types.rows[0].d);
      expect(types.rows[0].n).toBeGreaterThan(50);
    } finally {
      await client.end();
    }
  });
});

describe('two servers on one database, one Redis and one media directory (two machines behind a load balancer)', () => {
  it('share everything: what one writes the other reads, its sessions, tokens, files, and webhook rules', async () => {
    const receiver = new Receiver();
    await receiver.start();
    const mediaRoot = mkdtempSync(join(tmpdir(), 'patchbay-shared-media-'));
    const a = await startServer({ settings: { MEDIA_ROOT: mediaRoot, OUTBOX_SWEEP_SECONDS: 2 } });
    const b = await startServer({ joining: a, settings: { OUTBOX_SWEEP_SECONDS: 2 } });
    try {
      expect(a.base).not.toBe(b.base);
      // A token made on one, used on the other.
      const { body: token } = await a.post('/api/users/tokens/', { user: a.admin.id, description: 'made on a' });
      const { body: tenant } = await b.post('/api/tenancy/tenants/', { name: 'Written by b', slug: 'by-b' }, { token: token.key });
      expect((await a.get(`/api/tenancy/tenants/${tenant.id}/`)).body.name).toBe('Written by b');

      // A browser session opened on one is valid on the other.
      const page = await a.get('/login/', { token: null });
      const csrf = /name="csrfmiddlewaretoken" value="([0-9a-f]{64})"/.exec(page.text)![1];
      const login = await a.request('POST', '/login/', {
        raw: new URLSearchParams({ csrfmiddlewaretoken: csrf, username: a.admin.username, password: a.admin.password }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: `csrftoken=${csrf}` },
        token: null,
      });
      const session = login.headers.getSetCookie().find((c) => c.startsWith('sessionid='))!.split(';')[0];
      expect((await b.get('/api/tenancy/tenants/', { token: null, headers: { Cookie: session } })).body.count).toBe(1);

      // A file uploaded through one is served by the other.
      const form = new FormData();
      for (const [k, v] of Object.entries({ object_type: 'tenancy.tenant', object_id: String(tenant.id), name: 'photo' })) form.set(k, v);
      form.set('image', new Blob([new Uint8Array(png(5, 3))], { type: 'image/png' }), 'photo.png');
      const uploaded = await fetch(`${a.base}/api/extras/image-attachments/`, { method: 'POST', body: form, headers: { Authorization: `Token ${a.admin.token}` } });
      const image = ((await uploaded.json()) as { image: string }).image;
      const served = await fetch(image.replace(a.base, b.base), { headers: { Authorization: `Token ${b.admin.token}` } });
      expect([served.status, Buffer.from(await served.arrayBuffer()).equals(png(5, 3))]).toEqual([200, true]);

      // A rule made on one applies at once to writes through the other (its cache hears the change), and the
      // deliveries are sent once, by either.
      const { body: hook } = await a.post('/api/extras/webhooks/', { name: 'shared', payload_url: `${receiver.url}/` });
      await a.post('/api/extras/event-rules/', {
        name: 'shared', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: hook.id,
      });
      const names: string[] = [];
      await until(async () => {
        names.push(`Probe ${names.length}`);
        await b.post('/api/tenancy/tenants/', { name: names.at(-1), slug: `probe-${names.length}` });
        return receiver.requests.length > 0;
      }, 10_000, 'b to apply the rule made on a');
      for (let i = 0; i < 10; i += 1) names.push(`Shared ${i}`);
      await Promise.all(names.filter((n) => n.startsWith('Shared')).map((name, i) => (i % 2 ? a : b).post('/api/tenancy/tenants/', { name, slug: `shared-${i}` })));
      const delivered = () => receiver.requests.map((r) => (JSON.parse(r.text) as { data: { name: string } }).data.name);
      // Every write after the first delivered one, once; those before it may have gone by before b heard of the rule.
      const expected = names.slice(names.indexOf(delivered()[0]));
      await until(() => receiver.requests.length >= expected.length, 20_000, 'the deliveries');
      await new Promise((r) => setTimeout(r, 1000));
      expect(delivered().sort()).toEqual([...expected].sort());
      expect((await b.get('/api/extras/webhook-deliveries/?status=delivered&limit=1')).body.count).toBe((await a.get('/api/extras/webhook-deliveries/?limit=1')).body.count);
    } finally {
      await b.close();
      await a.close();
      await receiver.stop();
    }
  }, 60_000);
});

/** One request on a connection of its own (a new one per request, so the cluster may hand it to any worker). */
function fresh(base: string, path: string, { method = 'GET', token, body }: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; text: string; connection?: string }> {
  const { hostname, port } = new URL(base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((ok, fail) => {
    const req = request({
      host: hostname, port, path, method, agent: false,
      headers: { Accept: 'application/json', ...(token ? { Authorization: `Token ${token}` } : {}), ...(payload ? { 'Content-Type': 'application/json' } : {}) },
    }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => ok({ status: res.statusCode ?? 0, text, connection: res.headers.connection }));
    });
    req.on('error', fail);
    // A connection handed to a worker as it died is never answered: fail rather than hang the test.
    req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
    req.end(payload);
  });
}

/** The server processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      // The fields after the command's parenthesis: state, then the parent's pid.
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return parent === pid && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('runserver') ? [Number(d)] : [];
    } catch {
      return [];
    }
  });
}

describe('runserver with WORKERS=2', () => {
  it('serves one port from two processes, replaces one that dies, and on SIGTERM to them all finishes a request under way before it stops', async () => {
    // A migrated database with an admin and a token.
    const setup = await startServer();
    const { token } = setup.admin;
    const url = setup.server.db.url;
    await setup.close();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawnManage(['runserver'], {
      DATABASE_URL: url, REDIS_URL: inject('redisUrl'), REDIS_PREFIX: `test-${randomUUID()}`, SECRET_KEY: 'test-secret', WORKERS: '2', PORT: String(port),
    });
    let log = '';
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    const exited = new Promise<number | null>((ok) => child.once('exit', ok));
    const blocker = new pg.Client({ connectionString: url });
    try {
      await until(() => log.includes(`Patchbay listening on ${base}/api/ (2 workers)`), STARTS_WITHIN, 'the workers to listen');
      // The first worker up said so before: from then on requests are answered.
      const answering = log.indexOf(`Patchbay answering on ${base}/api/ (1 of 2 workers up; the others are starting)`);
      expect(answering).toBeGreaterThanOrEqual(0);
      expect(answering).toBeLessThan(log.indexOf('Patchbay listening on'));
      const workers = childrenOf(child.pid!);
      expect(workers).toHaveLength(2);

      // Connections go to both, each line of the log saying which served it.
      for (let i = 0; i < 20; i += 1) expect((await fresh(base, '/api/tenancy/tenants/', { token })).status).toBe(200);
      const servedBy = new Set([...log.matchAll(/request method=GET path=\/api\/tenancy\/tenants\/ status=200 .* pid=(\d+)/g)].map((m) => Number(m[1])));
      expect([...servedBy].sort()).toEqual([...workers].sort());

      // A worker killed is replaced; once the supervisor knows, the other serves every connection meanwhile.
      process.kill(workers[0], 'SIGKILL');
      await until(() => log.includes(`Worker ${workers[0]} exited (SIGKILL); starting another`), 10_000, 'the supervisor to see the worker die');
      for (let i = 0; i < 5; i += 1) expect((await fresh(base, '/readyz')).status).toBe(200);
      await until(() => childrenOf(child.pid!).length === 2 && !childrenOf(child.pid!).includes(workers[0]), 20_000, 'a new worker');
      await until(() => new RegExp(`Worker \\d+ serving in place of ${workers[0]}`).test(log), 30_000, 'the new worker to serve');

      // A write held up by a lock is under way when SIGTERM comes: it finishes, answered, before the workers stop.
      await blocker.connect();
      await blocker.query('begin');
      await blocker.query('lock table tenancy_tenant in access exclusive mode');
      const write = fresh(base, '/api/tenancy/tenants/', { method: 'POST', token, body: { name: 'In flight', slug: 'in-flight' } });
      await until(async () => (await blocker.query("select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()")).rowCount === 1, 10_000, 'the write to wait');
      // As systemd stops a service: SIGTERM to every process of it at once, the supervisor then passing on its own.
      for (const pid of [child.pid!, ...childrenOf(child.pid!)]) process.kill(pid, 'SIGTERM');
      await until(() => log.includes('SIGTERM: shutting down'), 10_000, 'the shutdown to begin');
      await new Promise((r) => setTimeout(r, 1000));
      // No longer taking new connections.
      await expect(fresh(base, '/readyz')).rejects.toThrow(/ECONNREFUSED|ECONNRESET/);
      await blocker.query('rollback');
      const answered = await write;
      expect([answered.status, answered.connection]).toEqual([201, 'close']);
      expect(await exited).toBe(0);
      expect(childrenOf(child.pid!)).toEqual([]);
      const { rows } = await blocker.query("select count(*)::int as n from tenancy_tenant where slug = 'in-flight'");
      expect(rows[0].n).toBe(1);
    } finally {
      child.kill('SIGKILL');
      await blocker.end().catch(() => undefined);
    }
  }, STARTS_WITHIN + 60_000);
});
