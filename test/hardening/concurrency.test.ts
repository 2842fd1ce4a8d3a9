import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const TENANTS = '/api/tenancy/tenants/';
const FIELDS = Array.from({ length: 20 }, (_, i) => `f${i}`);

beforeAll(async () => {
  t = await startServer();
  await t.post('/api/extras/custom-fields/', [
    ...FIELDS.map((name) => ({ name, type: 'integer', object_types: ['tenancy.tenant'] })),
    { name: 'serial', type: 'text', unique: true, object_types: ['tenancy.tenant'] },
  ]);
});
afterAll(async () => {
  await t?.close();
});

describe('concurrent writes', () => {
  it('lose nothing: twenty PATCHes of different custom fields of one object all persist, their change records chained', async () => {
    const { body: tenant } = await t.post(TENANTS, { name: 'Busy', slug: 'busy' });
    const results = await Promise.all(FIELDS.map((name, i) => t.request('PATCH', `${TENANTS}${tenant.id}/`, { body: { custom_fields: { [name]: i } } })));
    expect(results.map((r) => r.status)).toEqual(FIELDS.map(() => 200));
    const stored = (await t.get(`${TENANTS}${tenant.id}/`)).body.custom_fields;
    expect(FIELDS.map((name) => stored[name])).toEqual(FIELDS.map((_, i) => i));

    // Each update's "before" is the previous update's "after".
    const changes = (await t.get(`/api/extras/object-changes/?changed_object_type=tenancy.tenant&changed_object_id=${tenant.id}&action=update&limit=0`)).body.results;
    const chain = [...changes].sort((a: { id: number }, b: { id: number }) => a.id - b.id);
    expect(chain).toHaveLength(20);
    for (let i = 1; i < chain.length; i++) expect(chain[i].prechange_data).toEqual(chain[i - 1].postchange_data);
  });

  it('keep unique values unique, custom fields included, with the NetBox message for the losers', async () => {
    const names = await Promise.all(Array.from({ length: 8 }, () => t.post(TENANTS, { name: 'Same', slug: `same-${Math.random().toString(36).slice(2)}` })));
    expect(names.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    for (const loser of names.filter((r) => r.status === 400)) expect(loser.body).toEqual({ __all__: ['Tenant name must be globally unique.'] });

    const serials = await Promise.all(Array.from({ length: 8 }, (_, i) => t.post(TENANTS, { name: `Serial ${i}`, slug: `serial-${i}`, custom_fields: { serial: 'S-1' } })));
    expect(serials.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    for (const loser of serials.filter((r) => r.status === 400)) expect(loser.body).toEqual({ __all__: ["Custom field 'serial' must have a unique value."] });
  });

  it('never show a deadlock: bulk updates of the same objects in opposite orders all succeed', async () => {
    const { body: rows } = await t.post(TENANTS, Array.from({ length: 30 }, (_, i) => ({ name: `Lock ${i}`, slug: `lock-${i}` })));
    const ids: number[] = rows.map((r: { id: number }) => r.id);
    const writes = await Promise.all(
      Array.from({ length: 12 }, (_, n) => {
        const order = n % 2 ? [...ids].reverse() : ids;
        return t.request('PATCH', TENANTS, { body: order.map((id) => ({ id, description: `round ${n}`, custom_fields: { f0: n } })) });
      }),
    );
    expect(writes.map((w) => w.status)).toEqual(writes.map(() => 200));
    const deletes = await Promise.all([ids.slice(0, 20), [...ids.slice(10)].reverse()].map((part) => t.request('DELETE', TENANTS, { body: part.map((id) => ({ id })) })));
    expect(deletes.map((d) => d.status)).toEqual([204, 204]);
    expect((await t.get(`${TENANTS}?name__isw=Lock`)).body.count).toBe(0);
  });
});

describe('the database connections', () => {
  // A bounded pool is what lets an operator size PostgreSQL's max_connections for many processes (docs/deploy.md).
  it.each([[2, (most: number) => expect(most).toBeLessThanOrEqual(3)], [10, (most: number) => expect(most).toBeGreaterThan(3)]])(
    'holds at most DATABASE_POOL_SIZE=%i connections, besides the one to LISTEN, while it serves a burst of reads and writes',
    async (size, check) => {
      const s = await startServer({ settings: { DATABASE_POOL_SIZE: size } });
      const watcher = new pg.Client({ connectionString: s.server.db.url });
      await watcher.connect();
      try {
        const { body: seeded } = await s.post(TENANTS, Array.from({ length: 10 }, (_, i) => ({ name: `Pool ${i}`, slug: `pool-${i}` })));
        let most = 0;
        let busy = true;
        const watching = (async () => {
          while (busy) {
            const { rows } = await watcher.query('select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
            most = Math.max(most, rows[0].n);
          }
        })();
        const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => {
          if (i % 4 === 0) return s.post(TENANTS, Array.from({ length: 5 }, (_, j) => ({ name: `Burst ${i}-${j}`, slug: `burst-${i}-${j}` })));
          if (i % 4 === 1) return s.request('PATCH', `${TENANTS}${seeded[i % 10].id}/`, { body: { description: `round ${i}` } });
          if (i % 4 === 2) return s.get(`${TENANTS}?limit=50`);
          return s.get(`${TENANTS}${seeded[i % 10].id}/`);
        }));
        busy = false;
        await watching;
        expect(burst.map((r) => r.status).filter((status) => status >= 300)).toEqual([]);
        expect((await s.get(`${TENANTS}?name__isw=Burst&limit=1`)).body.count).toBe(50);
        check(most);
      } finally {
        await watcher.end();
        await s.close();
      }
    },
  );

  it('go through PostgreSQL\'s Unix socket when DATABASE_URL names its directory as the host (a database on the same machine)', async () => {
    const first = await startServer();
    const tcp = first.server.settings.DATABASE_URL!;
    const watcher = new pg.Client({ connectionString: tcp });
    await watcher.connect();
    try {
      // Connections through the socket have no client address; the first server's and this one, over TCP, have one.
      const throughSocket = async () => (await watcher.query("select count(*)::int as n from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and client_addr is null")).rows[0].n;
      expect(await throughSocket()).toBe(0);
      const directory = (await watcher.query('show unix_socket_directories')).rows[0].unix_socket_directories.split(',')[0].trim();
      const socketUrl = new URL(tcp);
      socketUrl.hostname = encodeURIComponent(directory);
      const s = await startServer({ joining: first, settings: { DATABASE_URL: socketUrl.toString() } });
      try {
        expect((await s.post(TENANTS, { name: 'Local', slug: 'local' })).status).toBe(201);
        expect((await first.get(`${TENANTS}?slug=local`)).body.count).toBe(1);
        expect(await throughSocket()).toBeGreaterThan(0);
      } finally {
        await s.close();
      }
    } finally {
      await watcher.end();
      await first.close();
    }
  });
});
