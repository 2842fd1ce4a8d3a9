import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const URL_ = '/api/tenancy/tenants/';

beforeAll(async () => {
  t = await startServer({ settings: { PAGINATE_COUNT: 3, MAX_PAGE_SIZE: 5 } });
  const groups = await t.post('/api/tenancy/tenant-groups/', [{ name: 'Zeta', slug: 'zeta' }, { name: 'Alpha', slug: 'alpha' }]);
  expect(groups.status).toBe(201);
  const tenants = Array.from({ length: 7 }, (_, i) => ({
    name: `Tenant ${String.fromCharCode(71 - i)}`,
    slug: `t-${i}`,
    group: i % 2 ? groups.body[0].id : groups.body[1].id,
    description: i < 3 ? 'same' : `d${i}`,
  }));
  expect((await t.post(URL_, tenants)).status).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

describe('pagination', () => {
  it('uses PAGINATE_COUNT by default and links the next page absolutely', async () => {
    const res = await t.get(URL_);
    expect(res.body.count).toBe(7);
    expect(res.body.results).toHaveLength(3);
    expect(res.body.previous).toBeNull();
    expect(res.body.next).toBe(`${t.base}${URL_}?limit=3&offset=3`);
  });

  it('keeps other parameters in links and drops offset from a previous link to the first page', async () => {
    const res = await t.get(`${URL_}?ordering=-name&limit=2&offset=2`);
    expect(res.body.results.map((r: { name: string }) => r.name)).toEqual(['Tenant E', 'Tenant D']);
    expect(res.body.next).toBe(`${t.base}${URL_}?ordering=-name&limit=2&offset=4`);
    expect(res.body.previous).toBe(`${t.base}${URL_}?ordering=-name&limit=2`);
    const last = await t.get(`${URL_}?limit=2&offset=6`);
    expect(last.body.next).toBeNull();
    expect(last.body.previous).toBe(`${t.base}${URL_}?limit=2&offset=4`);
  });

  it('caps limit at MAX_PAGE_SIZE and treats limit=0 as the maximum', async () => {
    expect((await t.get(`${URL_}?limit=100`)).body.results).toHaveLength(5);
    expect((await t.get(`${URL_}?limit=0`)).body.results).toHaveLength(5);
  });

  it('returns an empty page past the end with the real count, and ignores invalid numbers', async () => {
    const past = await t.get(`${URL_}?offset=50`);
    expect(past.body).toMatchObject({ count: 7, results: [] });
    const bad = await t.get(`${URL_}?limit=abc&offset=-4`);
    expect(bad.body.results).toHaveLength(3);
  });

  it('returns every row for limit=0 when MAX_PAGE_SIZE is 0 or null', async () => {
    for (const max of [0, null]) {
      const open = await startServer({ settings: { MAX_PAGE_SIZE: max, PAGINATE_COUNT: 2 } });
      try {
        await open.post(URL_, Array.from({ length: 4 }, (_, i) => ({ name: `T${i}`, slug: `t${i}` })));
        const all = await open.get(`${URL_}?limit=0`);
        expect(all.body).toMatchObject({ count: 4, next: null, previous: null });
        expect(all.body.results).toHaveLength(4);
        expect((await open.get(URL_)).body.results).toHaveLength(2);
      } finally {
        await open.close();
      }
    }
  });
});

describe('ordering', () => {
  it('orders by the default ordering, then by several fields with - for descending', async () => {
    const names = (r: { body: { results: { name: string }[] } }) => r.body.results.map((x) => x.name);
    expect(names(await t.get(`${URL_}?limit=5`))).toEqual(['Tenant A', 'Tenant B', 'Tenant C', 'Tenant D', 'Tenant E']);
    expect(names(await t.get(`${URL_}?limit=5&ordering=description,-name`))).toEqual(['Tenant D', 'Tenant C', 'Tenant B', 'Tenant A', 'Tenant G']);
    const byDesc = await t.get(`${URL_}?limit=5&ordering=description,-name`);
    expect(byDesc.body.results.map((r: { description: string }) => r.description)).toEqual(['d3', 'd4', 'd5', 'd6', 'same']);
    const same = await t.get(`${URL_}?limit=5&offset=4&ordering=description,-name`);
    expect(same.body.results.map((r: { name: string }) => r.name)).toEqual(['Tenant G', 'Tenant F', 'Tenant E']);
  });

  it('orders a foreign key by its target ordering and ignores unknown fields', async () => {
    const res = await t.get(`${URL_}?limit=5&ordering=group,-name,bogus`);
    const groups = res.body.results.map((r: { group: { name: string } }) => r.group.name);
    expect(groups).toEqual(['Alpha', 'Alpha', 'Alpha', 'Alpha', 'Zeta']);
    expect(res.body.results[0].name).toBe('Tenant G');
  });
});

describe('brief', () => {
  it('renders the brief field set on lists and details with any non-empty value', async () => {
    const list = await t.get(`${URL_}?brief=1&limit=1`);
    expect(Object.keys(list.body.results[0])).toEqual(['id', 'url', 'display', 'name', 'slug', 'description']);
    const id = list.body.results[0].id;
    for (const v of ['true', '0', 'yes']) {
      const detail = await t.get(`${URL_}${id}/?brief=${v}`);
      expect(Object.keys(detail.body)).toEqual(['id', 'url', 'display', 'name', 'slug', 'description']);
    }
    const full = await t.get(`${URL_}${id}/?brief=`);
    expect(full.body).toHaveProperty('comments');
  });

  it('renders tree models briefly with their count and depth', async () => {
    const res = await t.get('/api/tenancy/tenant-groups/?brief=1');
    expect(res.body.results[0]).toEqual({
      id: expect.any(Number),
      url: expect.stringMatching(/\/api\/tenancy\/tenant-groups\/\d+\/$/),
      display: 'Alpha',
      name: 'Alpha',
      slug: 'alpha',
      description: '',
      tenant_count: 4,
      _depth: 0,
    });
  });
});

describe('ordering terms a field cannot honour', () => {
  it('are dropped, as unknown ones: a json column (no order in PostgreSQL) and a secret (its order would tell of it)', async () => {
    await t.createUser('zed');
    await t.createUser('amy');
    const byId = (await t.get('/api/users/users/?limit=5&ordering=unknown')).body.results.map((u: { id: number }) => u.id);
    for (const ordering of ['password', '-password']) {
      const res = await t.get(`/api/users/users/?limit=5&ordering=${ordering}`);
      expect(res.status).toBe(200);
      expect(res.body.results.map((u: { id: number }) => u.id)).toEqual(byId);
    }
    expect((await t.get('/api/extras/webhook-deliveries/?ordering=context,-request_id')).status).toBe(200);
  });
});
