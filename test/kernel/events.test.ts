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
beforeEach(() => {
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

  it('receive nothing from a write that was rolled back', async () => {
    const res = await t.post('/api/tenancy/tenants/', [{ name: 'R1', slug: 'r1' }, { name: 'R1', slug: 'r2' }]);
    expect(res.status).toBe(400);
    const blocked = await t.request('PATCH', '/api/tenancy/tenants/', { body: [{ id: 1, description: 'y' }, { id: 2, slug: '!' }] });
    expect(blocked.status).toBe(400);
    // A later write's event arrives alone: the refused ones left nothing in the outbox.
    const later = await t.post('/api/tenancy/tenants/', { name: 'After', slug: 'after' });
    await until(() => received.length > 0);
    expect(received.map((e) => e.id)).toEqual([later.body.id]);
    expect(await t.server.db.knex('core_eventoutbox').count('* as n')).toEqual([{ n: '0' }]);
  });
});
