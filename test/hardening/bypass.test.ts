import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

let t: TestServer;
let user: TestUser;
const TENANTS = '/api/tenancy/tenants/';
const JOURNAL = '/api/extras/journal-entries/';
let red: number;
let blue: number;

beforeAll(async () => {
  t = await startServer({ settings: { MAINTENANCE_MODE: false } });
  user = await t.createUser('limited');
  const { body: groups } = await t.post('/api/tenancy/tenant-groups/', [{ name: 'Red', slug: 'red' }, { name: 'Blue', slug: 'blue' }]);
  const { body: tenants } = await t.post(TENANTS, [{ name: 'Red one', slug: 'red-one', group: groups[0].id }, { name: 'Blue one', slug: 'blue-one', group: groups[1].id }]);
  [red, blue] = tenants.map((r: { id: number }) => r.id);
  await t.post('/api/users/permissions/', [
    { name: 'red tenants', object_types: ['tenancy.tenant'], actions: ['view'], constraints: { group__slug: 'red' }, users: [user.id] },
    {
      name: 'records', object_types: ['extras.journalentry', 'tenancy.contactassignment', 'tenancy.contact'], actions: ['view', 'add'], users: [user.id],
    },
  ]);
});
afterAll(async () => {
  await t?.close();
});

describe('paths', () => {
  it('are case-sensitive, so no spelling skips a check', async () => {
    expect((await t.get('/API/tenancy/tenants/')).status).toBe(404);
    expect((await t.post('/api/Tenancy/tenants/', { name: 'X', slug: 'x' })).status).toBe(404);
    expect((await t.get(TENANTS)).status).toBe(200);
  });
});

describe('token keys', () => {
  it('are never a filter but whole, so no lookup reveals part of one', async () => {
    const key = t.admin.token;
    const all = (await t.get('/api/users/tokens/')).body.count;
    expect(all).toBeGreaterThan(1);
    for (const query of [`key__isw=${key.slice(0, 2)}`, `key__regex=^${key.slice(0, 2)}`, `key__ic=${key.slice(5, 9)}`, 'key__n=x']) {
      expect((await t.get(`/api/users/tokens/?${query}`)).body.count, query).toBe(all);
    }
    expect((await t.get(`/api/users/tokens/?key=${key}`)).body.results.map((r: { key: string }) => r.key)).toEqual([key]);
    // The same key but its last digit.
    expect((await t.get(`/api/users/tokens/?key=${key.slice(0, 39)}${key.endsWith('0') ? '1' : '0'}`)).body.count).toBe(0);
    // Nor through a permission's constraints.
    const grant = await t.post('/api/users/permissions/', { name: 'probe', object_types: ['users.token'], actions: ['view'], constraints: { key__startswith: 'a' } });
    expect(grant.body).toEqual({ constraints: ['Invalid filter for users.token: A token key can only be matched whole.'] });
  });
});

describe('references to objects the user cannot view', () => {
  it('are refused in writes as if the object did not exist', async () => {
    const on = (id: number) => ({ assigned_object_type: 'tenancy.tenant', assigned_object_id: id, comments: 'noted' });
    expect((await t.post(JOURNAL, on(blue), { token: user.token })).body).toEqual({ assigned_object_id: [`Related object not found using the provided value: ${blue}.`] });
    expect((await t.post(JOURNAL, on(red), { token: user.token })).status).toBe(201);
    const { body: contact } = await t.post('/api/tenancy/contacts/', { name: 'Pat' }, { token: user.token });
    const assignment = await t.post('/api/tenancy/contact-assignments/', { object_type: 'tenancy.tenant', object_id: blue, contact: contact.id }, { token: user.token });
    expect(assignment.body).toEqual({ object_id: [`Related object not found using the provided value: ${blue}.`] });
    // A custom field object value too.
    await t.post('/api/extras/custom-fields/', { name: 'home', type: 'object', related_object_type: 'tenancy.tenant', object_types: ['tenancy.contact'] });
    const valued = await t.post('/api/tenancy/contacts/', { name: 'Sam', custom_fields: { home: blue } }, { token: user.token });
    expect(valued.body).toEqual({ __all__: [`Invalid value for custom field 'home': Unknown related object(s): ${blue}`] });
    expect((await t.post('/api/tenancy/contacts/', { name: 'Sam', custom_fields: { home: { slug: 'blue-one' } } }, { token: user.token })).status).toBe(400);
  });

  it('read back as null: their type and id show, nothing of the object', async () => {
    await t.post(JOURNAL, { assigned_object_type: 'tenancy.tenant', assigned_object_id: blue, comments: 'by admin' });
    const { body: contact } = await t.post('/api/tenancy/contacts/', { name: 'Lee', custom_fields: { home: blue } });
    const entries = (await t.get(`${JOURNAL}?assigned_object_id=${blue}`, { token: user.token })).body.results;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ assigned_object_type: 'tenancy.tenant', assigned_object_id: blue, assigned_object: null });
    expect(JSON.stringify(entries[0])).not.toContain('Blue one');
    expect((await t.get(`/api/tenancy/contacts/${contact.id}/`, { token: user.token })).body.custom_fields.home).toBeNull();
    // Those who may view the object see it.
    expect((await t.get(`${JOURNAL}?assigned_object_id=${blue}`)).body.results[0].assigned_object).toMatchObject({ id: blue, name: 'Blue one' });
  });
});

describe('regular expressions from users', () => {
  it('run in linear time: a catastrophic pattern answers at once, backreferences are refused', async () => {
    const field = await t.post('/api/extras/custom-fields/', { name: 'word', type: 'text', validation_regex: '^(a+)+$', object_types: ['tenancy.tenant'] });
    expect(field.status).toBe(201);
    // A backtracking engine would not finish this in the lifetime of the test run.
    const res = await t.post(TENANTS, { name: 'Slow', slug: 'slow', custom_fields: { word: `${'a'.repeat(80)}!` } });
    expect(res.body).toEqual({ __all__: ["Invalid value for custom field 'word': Values must match this regex: '^(a+)+$'"] });
    expect((await t.post(TENANTS, { name: 'Fast', slug: 'fast', custom_fields: { word: 'a'.repeat(80) } })).status).toBe(201);
    const backref = await t.post('/api/extras/custom-fields/', { name: 'twice', type: 'text', validation_regex: '(a)\\1', object_types: ['tenancy.tenant'] });
    expect(backref.body).toEqual({ validation_regex: ['Enter a valid regular expression: /(a)\\1/u: invalid escape sequence: \\1'] });
  });
});
