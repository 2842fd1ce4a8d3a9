import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defineModel, f } from '../../kernel/index.js';
import { calls } from '../fixtures/plugins/hooks/index.js';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const PROBES = '/api/plugins/hooks/probes/';
const CHANGES = '/api/extras/object-changes/';

beforeAll(async () => {
  t = await startServer({ plugins: ['./test/fixtures/plugins/hooks/index.ts'] });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  calls.length = 0;
});

const seen = (hook: string) => calls.filter((c) => c.hook === hook).map((c) => c.seen);
const changesOf = async (res: { headers: Headers }) => (await t.get(`${CHANGES}?request_id=${res.headers.get('x-request-id')}`)).body.results;

describe('model lifecycle hooks', () => {
  it('beforeSave sees the parsed many-to-many and generic values and sets derived columns, which validators then see', async () => {
    const groups = (await t.post('/api/users/groups/', [{ name: 'g1' }, { name: 'g2' }, { name: 'g3' }])).body.map((g: { id: number }) => g.id);
    const { body: tenant } = await t.post('/api/tenancy/tenants/', { name: 'Target', slug: 'target' });
    const res = await t.post(PROBES, { name: 'p1', groups: groups.slice(0, 2), target_type: 'tenancy.tenant', target_id: tenant.id });
    expect(res.status).toBe(201);
    expect(res.body.summary).toBe(`2 groups, target tenancy.tenant#${tenant.id}`);
    expect(seen('beforeSave')).toEqual([{ action: 'create', name: 'p1', groups: groups.slice(0, 2), target: { model: 'tenancy.tenant', id: tenant.id } }]);
    expect(seen('validate')).toEqual([{ name: 'p1', summary: `2 groups, target tenancy.tenant#${tenant.id}`, groups: groups.slice(0, 2) }]);
    // The derived column is in the change log like any other.
    expect((await changesOf(res))[0].postchange_data.summary).toBe(`2 groups, target tenancy.tenant#${tenant.id}`);

    const patched = await t.request('PATCH', `${PROBES}${res.body.id}/`, { body: { target_type: null, target_id: null } });
    expect(patched.body.summary).toBe('unchanged groups, target none');
    expect(seen('beforeSave').at(-1)).toMatchObject({ action: 'update', name: 'p1', groups: undefined, target: null });

    expect((await t.post(PROBES, { name: 'many', groups })).body).toEqual({ groups: ['At most two groups.'] });
    expect((await t.post(PROBES, [{ name: 'fine' }, { name: 'refused' }])).body).toEqual([{}, { name: ['Refused by beforeSave.'] }]);
    expect((await t.get(`${PROBES}?name=fine`)).body.count).toBe(0);
  });

  it('afterSave runs once per write with every object, inside the transaction; its refusal rolls the whole write back', async () => {
    const ok = await t.post(PROBES, [{ name: 'a' }, { name: 'b' }]);
    expect(ok.status).toBe(201);
    // Values hold what the bodies gave: these gave no groups and no target.
    const summary = 'unchanged groups, target unchanged';
    expect(seen('afterSave')).toEqual([{ items: [['create', 'a', summary], ['create', 'b', summary]], stored: ['a', 'b'] }]);

    const refused = await t.post(PROBES, [{ name: 'c' }, { name: 'boom' }]);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'afterSave refused boom' });
    expect((await t.get(`${PROBES}?name=c&name=boom`)).body.count).toBe(0);
    expect(await changesOf(refused)).toEqual([]);

    // A failed write of the hook's own fails the caller's write as a whole, not as if its items were the caller's.
    const nested = await t.post(PROBES, [{ name: 'd' }, { name: 'nested' }]);
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual({ __all__: ['name: Ensure this field has no more than 50 characters.'] });
    expect((await t.get(`${PROBES}?name=d`)).body.count).toBe(0);
  });

  it('beforeDelete and afterDelete see the rows before and after they go, in the transaction; a refusal keeps them', async () => {
    const { body: probe } = await t.post(PROBES, { name: 'gone' });
    expect((await t.request('DELETE', `${PROBES}${probe.id}/`)).status).toBe(204);
    expect(seen('beforeDelete')).toEqual([{ rows: ['gone'], stored: ['gone'] }]);
    expect(seen('afterDelete')).toEqual([{ rows: ['gone'], stored: [] }]);

    const { body: sticky } = await t.post(PROBES, { name: 'sticky' });
    const refused = await t.request('DELETE', PROBES, { body: [{ id: sticky.id }] });
    expect(refused.status).toBe(409);
    expect((await t.get(`${PROBES}${sticky.id}/`)).status).toBe(200);
    expect(await changesOf(refused)).toEqual([]);
  });
});

describe('field objects', () => {
  it('belong to one model: reusing one in a second model fails loudly', () => {
    const shared = f.string({ max: 10 });
    defineModel('reuse.first', { path: 'firsts', fields: { name: shared }, brief: [] });
    expect(() => defineModel('reuse.second', { path: 'seconds', fields: { title: shared }, brief: [] })).toThrow(
      'reuse.second.title: this field object is already reuse.first.name; create one field per model (call the builder again)',
    );
  });
});

describe('a plugin on the HTTP surface', () => {
  it('mounts a path outside /api/ behind the login, and hooks every request before routing and after answering', async () => {
    const page = await t.get('/hooks-page/');
    expect(page.status).toBe(200);
    expect(page.text).toBe('hello admin');
    // No credentials: the API's 403 for clients, the login page for browsers.
    const anonymous = await t.get('/hooks-page/', { token: null });
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    const browser = await t.get('/hooks-page/', { token: null, headers: { Accept: 'text/html' } });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/login/?next=%2Fhooks-page%2F');

    const refused = await t.get('/api/tenancy/tenants/', { headers: { 'X-Refuse': 'yes' } });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: 'Refused by a request hook.' });
    // One the pipeline refuses before any route.
    expect((await t.get('/api/tenancy/tenants/', { token: null })).status).toBe(403);
    // The response side has run for each request once it was answered, with the user it was authenticated as.
    await expect.poll(() => seen('response').length).toBe(5);
    expect(seen('response')).toEqual([
      { path: '/hooks-page/', status: 200, user: 'admin', timed: true },
      { path: '/hooks-page/', status: 403, user: null, timed: true },
      { path: '/hooks-page/', status: 302, user: null, timed: true },
      { path: '/api/tenancy/tenants/', status: 429, user: 'admin', timed: true },
      { path: '/api/tenancy/tenants/', status: 403, user: null, timed: true },
    ]);
  });
});
