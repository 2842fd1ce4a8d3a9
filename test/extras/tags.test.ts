import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PLUGIN, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const TENANTS = '/api/tenancy/tenants/';
const tag: Record<string, number> = {};

beforeAll(async () => {
  t = await startServer({ plugins: [EXAMPLE_PLUGIN] });
  const res = await t.post('/api/extras/tags/', [
    { name: 'Core', slug: 'core', color: '2196f3' },
    { name: 'Edge', slug: 'edge' },
    { name: 'Lab', slug: 'lab', object_types: ['maintenance.window'] },
  ]);
  expect(res.status).toBe(201);
  for (const r of res.body) tag[r.slug] = r.id;
});
afterAll(async () => {
  await t?.close();
});

const names = async (query: string) => (await t.get(`${TENANTS}?${query}`)).body.results.map((r: { name: string }) => r.name).sort();

describe('tags', () => {
  it('are written as ids or attributes and read as nested tags in tag order', async () => {
    const res = await t.post(TENANTS, { name: 'Both', slug: 'both', tags: [tag.edge, { slug: 'core' }] });
    expect(res.status).toBe(201);
    expect(res.body.tags).toEqual([
      { id: tag.core, url: `${t.base}/api/extras/tags/${tag.core}/`, display: 'Core', display_url: `${t.base}/extras/tags/${tag.core}/`, name: 'Core', slug: 'core', color: '2196f3' },
      { id: tag.edge, url: `${t.base}/api/extras/tags/${tag.edge}/`, display: 'Edge', display_url: `${t.base}/extras/tags/${tag.edge}/`, name: 'Edge', slug: 'edge', color: '9e9e9e' },
    ]);
    await t.post(TENANTS, [{ name: 'CoreOnly', slug: 'core-only', tags: [tag.core] }, { name: 'None', slug: 'none' }]);
    const kept = await t.request('PATCH', `${TENANTS}${res.body.id}/`, { body: { description: 'x' } });
    expect(kept.body.tags).toHaveLength(2);
    const [change] = (await t.get(`/api/extras/object-changes/?request_id=${res.headers.get('x-request-id')}`)).body.results;
    expect(change.postchange_data.tags).toEqual(['Core', 'Edge']);
  });

  it('keep tag order when renders side by side load them together', async () => {
    // Weights order the tags against their ids.
    const made = await t.post('/api/extras/tags/', [{ name: 'Heavy', slug: 'heavy', weight: 900 }, { name: 'Light', slug: 'light', weight: 100 }]);
    const [heavy, light] = made.body as { id: number }[];
    const tenants = await t.post(TENANTS, [{ name: 'Side 1', slug: 'side-1', tags: [heavy.id, light.id] }, { name: 'Side 2', slug: 'side-2', tags: [light.id, heavy.id] }]);
    const model = t.server.registry.get('tenancy.tenant');
    const rows = await t.server.db.knex('tenancy_tenant').whereIn('id', (tenants.body as { id: number }[]).map((r) => r.id)).orderBy('id');
    const rendered = await Promise.all(rows.map((row) => t.server.system.render(model, [row])));
    for (const [object] of rendered) expect((object.tags as { slug: string }[]).map((x) => x.slug)).toEqual(['light', 'heavy']);
    await t.request('DELETE', TENANTS, { body: (tenants.body as { id: number }[]).map(({ id }) => ({ id })) });
    await t.request('DELETE', '/api/extras/tags/', { body: [{ id: heavy.id }, { id: light.id }] });
  });

  it('are read once by a write: its answer and change record order them as reads do', async () => {
    // Weights and names disagree with ids; the lower-case name sorts as the database's collation says.
    const made = await t.post('/api/extras/tags/', [
      { name: 'Zulu', slug: 'zulu', weight: 100 }, { name: 'alpha', slug: 'alpha', weight: 100 }, { name: 'Mid', slug: 'mid', weight: 50 },
    ]);
    const ids = (made.body as { id: number }[]).map((r) => r.id);
    let res!: Awaited<ReturnType<typeof t.post>>;
    const texts = (await t.statements(async () => {
      res = await t.post(TENANTS, [{ name: 'Read once', slug: 'read-once', tags: ids }, { name: 'Read once 2', slug: 'read-once-2', tags: [ids[1]] }]);
    })).map((s) => s.sql);
    expect(res.status).toBe(201);
    expect(texts.filter((sql) => /from "extras_tag"/.test(sql))).toHaveLength(1);
    for (const object of res.body as { id: number }[]) expect(object).toEqual((await t.get(`${TENANTS}${object.id}/`)).body);
    const byName = (await t.server.db.knex('extras_tag').whereIn('id', ids).orderBy('name').select('name')).map((r: { name: string }) => r.name);
    const [first] = (await t.get(`/api/extras/object-changes/?request_id=${res.headers.get('x-request-id')}&changed_object_id=${res.body[0].id}`)).body.results;
    expect(first.postchange_data.tags).toEqual(byName);
    await t.request('DELETE', TENANTS, { body: (res.body as { id: number }[]).map(({ id }) => ({ id })) });
    await t.request('DELETE', '/api/extras/tags/', { body: ids.map((id) => ({ id })) });
  });

  it('filter with AND semantics for repeated tags, tag__n and tag_id', async () => {
    expect(await names('tag=core')).toEqual(['Both', 'CoreOnly']);
    expect(await names('tag=core&tag=edge')).toEqual(['Both']);
    expect(await names(`tag_id=${tag.core}&tag_id=${tag.edge}`)).toEqual(['Both']);
    expect(await names('tag__n=edge')).toEqual(['CoreOnly', 'None']);
    expect((await t.get(`${TENANTS}?tag=nope`)).body).toEqual({ tag: ['Select a valid choice. nope is not one of the available choices.'] });
  });

  it('respect a tag’s object types, clear with [] and disappear with their object or tag', async () => {
    const refused = await t.post(TENANTS, { name: 'Lab', slug: 'lab', tags: [tag.lab] });
    expect(refused.body).toEqual({ tags: ['Tag "Lab" cannot be applied to tenancy.tenant objects.'] });
    const window = await t.post('/api/plugins/maintenance/windows/', { name: 'Tagged', starts: '2031-01-01T00:00:00Z', tags: [{ name: 'Lab' }] });
    expect(window.body.tags.map((x: { slug: string }) => x.slug)).toEqual(['lab']);
    expect((await t.get('/api/plugins/maintenance/windows/?tag=lab')).body.count).toBe(1);
    const both = (await t.get(`${TENANTS}?name=Both`)).body.results[0];
    expect((await t.request('PATCH', `${TENANTS}${both.id}/`, { body: { tags: [] } })).body.tags).toEqual([]);
    await t.request('DELETE', `/api/plugins/maintenance/windows/${window.body.id}/`);
    const items = await t.server.db.knex('extras_taggeditem').where('tag_id', tag.lab).count({ n: '*' });
    expect(items).toEqual([{ n: '0' }]);
    await t.request('DELETE', `/api/extras/tags/${tag.core}/`);
    expect((await t.get(`${TENANTS}?name=CoreOnly`)).body.results[0].tags).toEqual([]);
  });
});
