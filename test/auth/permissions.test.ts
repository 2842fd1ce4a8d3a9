import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

let t: TestServer;
let user: TestUser;
const TENANTS = '/api/tenancy/tenants/';
const PERMS = '/api/users/permissions/';
let ids: Record<string, number> = {};

/** Gives `user` one permission (replacing earlier ones). */
async function grant(actions: string[], constraints: unknown, objectTypes = ['tenancy.tenant']): Promise<void> {
  await t.server.db.knex('users_objectpermission').delete();
  const res = await t.post(PERMS, { name: `p-${actions.join('-')}`, object_types: objectTypes, actions, constraints, users: [user.id] });
  expect(res.status).toBe(201);
}

const names = async () => (await t.get(`${TENANTS}?limit=0`, { token: user.token })).body.results.map((r: { name: string }) => r.name);

beforeAll(async () => {
  t = await startServer();
  user = await t.createUser('operator');
  const groups = await t.post('/api/tenancy/tenant-groups/', [{ name: 'Red', slug: 'red' }, { name: 'Blue', slug: 'blue' }]);
  const tenants = await t.post(TENANTS, [
    { name: 'R1', slug: 'r1', group: groups.body[0].id },
    { name: 'R2', slug: 'r2', group: groups.body[0].id },
    { name: 'B1', slug: 'b1', group: groups.body[1].id },
    { name: 'None', slug: 'none' },
  ]);
  ids = Object.fromEntries(tenants.body.map((r: { name: string; id: number }) => [r.name, r.id]));
  ids.red = groups.body[0].id;
  ids.blue = groups.body[1].id;
});
afterAll(async () => {
  await t?.close();
});

describe('model permissions', () => {
  it('refuses a user holding no permission with 403', async () => {
    await t.server.db.knex('users_objectpermission').delete();
    const res = await t.get(TENANTS, { token: user.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect((await t.get(`${TENANTS}${ids.R1}/`, { token: user.token })).status).toBe(403);
  });

  it('lets superusers bypass every rule', async () => {
    expect((await t.get(TENANTS)).body.count).toBe(4);
  });

  it('omits OPTIONS actions the user may not perform', async () => {
    await grant(['view'], null);
    const res = await t.request('OPTIONS', TENANTS, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('actions');
    await grant(['view', 'add'], null);
    expect((await t.request('OPTIONS', TENANTS, { token: user.token })).body.actions).toHaveProperty('POST');
  });

  it('ignores disabled permissions and honours those given to a group', async () => {
    await grant(['view'], null);
    await t.server.db.knex('users_objectpermission').update({ enabled: false });
    expect((await t.get(TENANTS, { token: user.token })).status).toBe(403);
    await t.server.db.knex('users_objectpermission').delete();
    const group = await t.post('/api/users/groups/', { name: 'ops' });
    await t.request('PATCH', `/api/users/users/${user.id}/`, { body: { groups: [group.body.id] } });
    await t.post(PERMS, { name: 'via group', object_types: ['tenancy.tenant'], actions: ['view'], groups: [group.body.id] });
    expect((await t.get(TENANTS, { token: user.token })).body.count).toBe(4);
    expect((await t.get(`/api/users/groups/${group.body.id}/`)).body).toMatchObject({ user_count: 1, permissions: [{ name: 'via group' }] });
    await t.request('PATCH', `/api/users/users/${user.id}/`, { body: { groups: [] } });
  });
});

describe('constraints', () => {
  it('restrict lists and details; an invisible object is a 404', async () => {
    await grant(['view'], { group__slug: 'red' });
    expect(await names()).toEqual(['R1', 'R2']);
    expect((await t.get(`${TENANTS}${ids.B1}/`, { token: user.token })).status).toBe(404);
    expect((await t.get(`${TENANTS}${ids.R1}/`, { token: user.token })).status).toBe(200);
  });

  it('OR the objects of a list and accept lookups', async () => {
    await grant(['view'], [{ group__slug: 'blue' }, { name__istartswith: 'n', group__isnull: true }]);
    expect(await names()).toEqual(['B1', 'None']);
    await grant(['view'], { id__in: [ids.R2, ids.B1] });
    expect(await names()).toEqual(['B1', 'R2']);
  });

  it("accept Django's attnames: a relation's column for its id, alone, with a lookup and across relations", async () => {
    await grant(['view'], { group_id: ids.red });
    expect(await names()).toEqual(['R1', 'R2']);
    await grant(['view'], [{ group_id__in: [ids.blue] }, { group__parent_id__isnull: false }]);
    expect(await names()).toEqual(['B1']);
    // A name that is neither a field nor a relation's column stays refused, naming it.
    const bad = await t.post(PERMS, { name: 'bad attname', object_types: ['tenancy.tenant'], actions: ['view'], constraints: { slug_id: 1 } });
    expect(bad.status).toBe(400);
  });

  it('substitute $user with the requesting user', async () => {
    await grant(['view'], { id: '$user' }, ['users.user']);
    const res = await t.get('/api/users/users/', { token: user.token });
    expect(res.body.results.map((u: { username: string }) => u.username)).toEqual(['operator']);
    await grant(['view'], { id__in: ['$user', t.admin.id] }, ['users.user']);
    expect((await t.get('/api/users/users/', { token: user.token })).body.count).toBe(2);
  });

  it('apply to creates: the new object must match, else 403 and nothing is written', async () => {
    await grant(['view', 'add'], { group: ids.red });
    expect((await t.post(TENANTS, { name: 'R3', slug: 'r3', group: ids.red }, { token: user.token })).status).toBe(201);
    const refused = await t.post(TENANTS, { name: 'B2', slug: 'b2', group: ids.blue }, { token: user.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    const bulk = await t.post(TENANTS, [{ name: 'R4', slug: 'r4', group: ids.red }, { name: 'B3', slug: 'b3', group: ids.blue }], { token: user.token });
    expect(bulk.status).toBe(403);
    expect((await t.get(`${TENANTS}?limit=0`)).body.results.map((r: { name: string }) => r.name)).toEqual(['B1', 'None', 'R1', 'R2', 'R3']);
  });

  it('apply to changes before and after: moving an object out is refused, invisible objects are 404', async () => {
    await grant(['view', 'change'], { group__slug: 'red' });
    expect((await t.request('PATCH', `${TENANTS}${ids.R1}/`, { token: user.token, body: { description: 'ok' } })).status).toBe(200);
    const out = await t.request('PATCH', `${TENANTS}${ids.R1}/`, { token: user.token, body: { group: ids.blue } });
    expect(out.status).toBe(403);
    expect((await t.get(`${TENANTS}${ids.R1}/`)).body.group.id).toBe(ids.red);
    expect((await t.request('PATCH', `${TENANTS}${ids.B1}/`, { token: user.token, body: { description: 'x' } })).status).toBe(404);
  });

  it('keep bulk writes all or nothing', async () => {
    await grant(['view', 'change', 'delete'], { group__slug: 'red' });
    const bulk = await t.request('PATCH', TENANTS, {
      token: user.token,
      body: [{ id: ids.R1, description: 'first' }, { id: ids.R2, group: ids.blue }],
    });
    expect(bulk.status).toBe(403);
    expect((await t.get(`${TENANTS}${ids.R1}/`)).body.description).toBe('ok');
    // Objects outside the constraints are skipped, as NetBox does; the rest is deleted.
    const deleted = await t.request('DELETE', TENANTS, { token: user.token, body: [{ id: ids.B1 }, { id: ids.R2 }] });
    expect(deleted.status).toBe(204);
    expect((await t.get(`${TENANTS}${ids.B1}/`)).status).toBe(200);
    expect((await t.get(`${TENANTS}${ids.R2}/`)).status).toBe(404);
  });

  it('are read before a write opens its transaction: many concurrent writes by a constrained user all succeed', async () => {
    await grant(['add', 'view'], { group__slug: 'red' });
    // More writes at once than the pool has connections: a check waiting for a second connection would starve them.
    const writes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => t.post(TENANTS, { name: `Many ${i}`, slug: `many-${i}`, group: ids.red }, { token: user.token })),
    );
    expect(writes.map((w) => w.status)).toEqual(writes.map(() => 201));
  });

    it('are validated when a permission is written, regular expressions included', async () => {
    const regex = await t.post(PERMS, { name: 'bad regex', object_types: ['tenancy.tenant'], actions: ['view'], constraints: { name__regex: '[' } });
    expect(regex.body).toEqual({ constraints: ['Invalid filter for tenancy.tenant: name__regex: Enter a valid regular expression: /[/u: missing ]: ['] });

    const res = await t.post(PERMS, { name: 'bad', object_types: ['tenancy.tenant', 'tenancy.contact'], actions: ['view'], constraints: { group__slug: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ constraints: ["Invalid filter for tenancy.contact: Cannot resolve keyword 'group' into field."] });
    expect((await t.post(PERMS, { name: 'bad', object_types: ['nope.nothing'], actions: ['view'] })).body).toEqual({ object_types: ['Invalid content type: nope.nothing'] });
    expect((await t.post(PERMS, { name: 'bad', object_types: ['tenancy.tenant'], actions: [], constraints: 5 })).body).toEqual({
      actions: ['This list may not be empty.'],
    });
    expect((await t.post(PERMS, { name: 'bad', object_types: ['tenancy.tenant'], actions: ['view'], constraints: 5 })).body).toEqual({
      constraints: ['Invalid filter for tenancy.tenant: Constraints must be an object or a list of objects.'],
    });
  });
});

describe('anonymous access', () => {
  it('is refused everywhere below /api/ when LOGIN_REQUIRED, even for exempt models', async () => {
    const locked = await startServer({ settings: { LOGIN_REQUIRED: true, EXEMPT_VIEW_PERMISSIONS: ['*'] } });
    try {
      for (const path of ['/api/status/', '/api/tenancy/', TENANTS, '/api/plugins/']) {
        const res = await locked.get(path, { token: null });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      }
      // pynetbox reads `nb.version` from the root without a token: it answers, with the app list and API-Version.
      const root = await locked.get('/api/', { token: null });
      expect(root.status).toBe(200);
      expect(root.headers.get('api-version')).toBe('4.4');
      expect(root.body.tenancy).toBe(`${locked.base}/api/tenancy/`);
      const browser = await locked.get('/api/', { token: null, headers: { Accept: 'text/html' } });
      expect(browser.status).toBe(302);
      expect(browser.headers.get('location')).toBe('/login/?next=%2Fapi%2F');
    } finally {
      await locked.close();
    }
  });

  it('may read models in EXEMPT_VIEW_PERMISSIONS when LOGIN_REQUIRED is false, and nothing else', async () => {
    const open = await startServer({ settings: { LOGIN_REQUIRED: false, EXEMPT_VIEW_PERMISSIONS: ['tenancy.tenant'] } });
    try {
      await open.post(TENANTS, { name: 'Public', slug: 'public' });
      expect((await open.get(TENANTS, { token: null })).body.count).toBe(1);
      expect((await open.get('/api/', { token: null })).status).toBe(200);
      const contacts = await open.get('/api/tenancy/contacts/', { token: null });
      expect(contacts.status).toBe(403);
      expect(contacts.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect((await open.post(TENANTS, { name: 'Anon', slug: 'anon' }, { token: null })).status).toBe(403);
    } finally {
      await open.close();
    }
    const star = await startServer({ settings: { LOGIN_REQUIRED: false, EXEMPT_VIEW_PERMISSIONS: ['*'] } });
    try {
      expect((await star.get('/api/tenancy/contacts/', { token: null })).status).toBe(200);
      expect((await star.get('/api/users/users/', { token: null })).status).toBe(403);
      expect((await star.get('/api/users/tokens/', { token: null })).status).toBe(403);
    } finally {
      await star.close();
    }
  });
});

describe('users', () => {
  it('never render passwords and store them hashed', async () => {
    const res = await t.post('/api/users/users/', { username: 'dana', password: 'a sufficiently long one', first_name: 'Dana', last_name: 'Scully' });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('password');
    expect(res.body).toMatchObject({ display: 'dana (Dana Scully)', is_active: true, is_superuser: false, date_joined: expect.any(String), last_login: null });
    const stored = await t.server.db.knex('users_user').where('username', 'dana').first('password');
    expect(stored.password).toMatch(/^scrypt\$/);
    expect((await t.post('/api/users/users/', { username: 'short', password: 'short' })).body).toEqual({
      password: ['This password is too short. It must contain at least 12 characters.'],
    });
    expect((await t.post('/api/users/users/', { username: 'bad name!', password: 'a sufficiently long one' })).body).toEqual({
      username: ['Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.'],
    });
    const options = await t.request('OPTIONS', '/api/users/users/');
    expect(options.body.actions.POST.password).toMatchObject({ read_only: false, required: true });
  });
});
