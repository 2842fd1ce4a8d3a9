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
