import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { received } from '../fixtures/plugins/recorder.js';
import { until } from '../helpers/wait.js';

let t: TestServer;

beforeAll(async () => {
  t = await startServer({ plugins: ['./test/fixtures/plugins/recorder.ts'] });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.server.eventsTaken();
  received.length = 0;
});

describe('plugin event hooks', () => {
  it('receive created, updated and deleted events after the commit, with the request id', async () => {
    const created = await t.post('/api/tenancy/tenants/', [{ name: 'E1', slug: 'e1' }, { name: 'E2', slug: 'e2' }]);
    const id = created.body[0].id;
    const patched = await t.request('PATCH', `/api/tenancy/tenants/${id}/`, { body: { description: 'x' } });
    const deleted = await t.request('DELETE', `/api/tenancy/tenants/${id}/`);
    await until(() => received.length >= 4);
    expect(received.map((e) => [e.type, e.model, e.id])).toEqual([
      ['object_created', 'tenancy.tenant', id],
      ['object_created', 'tenancy.tenant', id + 1],
      ['object_updated', 'tenancy.tenant', id],
      ['object_deleted', 'tenancy.tenant', id],
    ]);
    expect(received[0].requestId).toBe(created.headers.get('x-request-id'));
    expect(received[2].requestId).toBe(patched.headers.get('x-request-id'));
    expect(received[3].requestId).toBe(deleted.headers.get('x-request-id'));
    expect(received[2].data).toMatchObject({ url: `/api/tenancy/tenants/${id}/`, description: 'x' });
    expect(received[3].data).toMatchObject({ name: 'E1' });
  });

  it("carry each object's data as the API shows it once the write is done, counts included", async () => {
    const hostless = (body: unknown) => JSON.parse(JSON.stringify(body).replaceAll(t.base, '')) as Record<string, unknown>;
    const created = await t.post('/api/tenancy/tenants/', [{ name: 'D1', slug: 'd1' }, { name: 'D2', slug: 'd2' }]);
    await until(() => received.length >= 2);
    for (const event of received) expect(event.data).toEqual(hostless((await t.get(`/api/tenancy/tenants/${event.id}/`)).body));
    // A tenant that sites refer to counts them in its event (the write did more than create tenants).
    const tenant = created.body[0].id;
    await t.post('/api/dcim/sites/', { name: 'Counted', slug: 'counted', tenant });
    await t.server.eventsTaken();
    received.length = 0;
    await t.request('PATCH', `/api/tenancy/tenants/${tenant}/`, { body: { description: 'counted' } });
    await until(() => received.length >= 1);
    const shown = hostless((await t.get(`/api/tenancy/tenants/${tenant}/`)).body);
    expect(shown.site_count).toBe(1);
    expect(received[0].data).toEqual(shown);
  });

  it('cost a write the same statements for one object or a hundred: their data is rendered once the write is done', async () => {
    let made = 0;
    const statements = async (count: number) => {
      const before = t.server.db.queryCount;
      const res = await t.post('/api/tenancy/tenants/', Array.from({ length: count }, () => ({ name: `B${made}`, slug: `b${made++}` })));
      expect(res.status).toBe(201);
      await t.server.eventsTaken();
      return t.server.db.queryCount - before;
    };
    await statements(1);
    // The token, the write (begin, tenants, change records, commit): the events are handed over in its transaction.
    expect([await statements(1), await statements(100)]).toEqual([5, 5]);
  });

  it("hand a big write's events over in its own transaction, in order", async () => {
    const bodies = Array.from({ length: 250 }, (_, i) => ({ name: `Big ${i}`, slug: `big-${i}` }));
    let created: { id: number }[] = [];
    const statements = await t.statements(async () => {
      created = (await t.post('/api/tenancy/tenants/', bodies)).body;
    });
    expect(statements.filter((s) => s.sql.includes('core_eventoutbox'))).toEqual([]);
    expect(received.map((e) => e.id)).toEqual(created.map((c) => c.id));
  });

  it('receive nothing from a write that was rolled back', async () => {
    const res = await t.post('/api/tenancy/tenants/', [{ name: 'R1', slug: 'r1' }, { name: 'R1', slug: 'r2' }]);
    expect(res.status).toBe(400);
    const blocked = await t.request('PATCH', '/api/tenancy/tenants/', { body: [{ id: 1, description: 'y' }, { id: 2, slug: '!' }] });
    expect(blocked.status).toBe(400);
    // A later write's event arrives alone: the refused ones handed none over.
    const later = await t.post('/api/tenancy/tenants/', { name: 'After', slug: 'after' });
    await t.server.eventsTaken();
    expect(received.map((e) => e.id)).toEqual([later.body.id]);
  });
});
