import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const TENANTS = '/api/tenancy/tenants/';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?Z$/;

beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

const names = async () => (await t.get(`${TENANTS}?limit=0`)).body.results.map((r: { name: string }) => r.name).sort();

describe('create', () => {
  it('creates one object and returns its full representation with 201', async () => {
    const res = await t.post(TENANTS, { name: 'Acme', slug: 'acme', description: '  trimmed  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      url: `${t.base}${TENANTS}${res.body.id}/`,
      display_url: `${t.base}/tenancy/tenants/${res.body.id}/`,
      display: 'Acme',
      name: 'Acme',
      slug: 'acme',
      group: null,
      description: 'trimmed',
      comments: '',
      tags: [],
      custom_fields: {},
      created: expect.stringMatching(ISO),
      last_updated: expect.stringMatching(ISO),
      site_count: 0, rack_count: 0, device_count: 0, prefix_count: 0, vrf_count: 0, vlan_count: 0, ipaddress_count: 0, cluster_count: 0, virtualmachine_count: 0, circuit_count: 0,
    });
    const ui = await t.get(`/tenancy/tenants/${res.body.id}/`);
    expect(ui.status).toBe(302);
    expect(ui.headers.get('location')).toBe(`${TENANTS}${res.body.id}/`);
  });

  it('answers validation failures with 400 and messages per field, writing nothing', async () => {
    const res = await t.post(TENANTS, { slug: 'not a slug', description: 'x'.repeat(201) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      name: ['This field is required.'],
      slug: ['Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'],
      description: ['Ensure this field has no more than 200 characters.'],
    });
    expect((await t.post(TENANTS, { name: null, slug: '' })).body).toEqual({
      name: ['This field may not be null.'],
      slug: ['This field may not be blank.'],
    });
    expect((await t.post(TENANTS, 'text')).body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] });
  });

  it('reports a uniqueness clash under the constraint', async () => {
    const res = await t.post(TENANTS, { name: 'Acme', slug: 'acme-2' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ __all__: ['Tenant name must be globally unique.'] });
  });

  it('creates a list all or nothing, with errors aligned to the input', async () => {
    const ok = await t.post(TENANTS, [{ name: 'B1', slug: 'b1' }, { name: 'B2', slug: 'b2' }]);
    expect(ok.status).toBe(201);
    expect(ok.body.map((r: { name: string }) => r.name)).toEqual(['B1', 'B2']);
    const bad = await t.post(TENANTS, [{ name: 'C1', slug: 'c1' }, { name: 'C2' }, { name: 'C1', slug: 'c1b' }]);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual([{}, { slug: ['This field is required.'] }, { __all__: ['Tenant name must be globally unique.'] }]);
    expect(await names()).toEqual(['Acme', 'B1', 'B2']);
  });

  it('words the clashes of otherwise valid objects, which the insert finds first, with a stored object and among themselves', async () => {
    const bad = await t.post(TENANTS, [{ name: 'D1', slug: 'd1' }, { name: 'Acme', slug: 'acme-3' }, { name: 'D1', slug: 'd1b' }, { name: 'D2', slug: 'd1' }]);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual([
      {}, { __all__: ['Tenant name must be globally unique.'] }, { __all__: ['Tenant name must be globally unique.'] }, { __all__: ['Tenant slug must be globally unique.'] },
    ]);
    expect(await names()).toEqual(['Acme', 'B1', 'B2']);
  });
});

describe('update', () => {
  it('PATCH changes only the given fields; PUT needs every required field', async () => {
    const { body: created } = await t.post(TENANTS, { name: 'Patchy', slug: 'patchy', comments: 'keep' });
    const patched = await t.request('PATCH', `${TENANTS}${created.id}/`, { body: { description: 'new' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Patchy', description: 'new', comments: 'keep' });
    expect(Date.parse(patched.body.last_updated)).toBeGreaterThanOrEqual(Date.parse(created.last_updated));
    const put = await t.request('PUT', `${TENANTS}${created.id}/`, { body: { name: 'Putty' } });
    expect(put.status).toBe(400);
    expect(put.body).toEqual({ slug: ['This field is required.'] });
    const full = await t.request('PUT', `${TENANTS}${created.id}/`, { body: { name: 'Putty', slug: 'putty' } });
    expect(full.body).toMatchObject({ name: 'Putty', slug: 'putty', comments: 'keep' });
    expect((await t.request('PATCH', `${TENANTS}999999/`, { body: {} })).status).toBe(404);
    expect((await t.request('PUT', `${TENANTS}${created.id}/`, { body: 'text' })).body).toEqual({
      non_field_errors: ['Invalid data. Expected a dictionary, but got str.'],
    });
    // A bulk item that is not an object names no object.
    expect((await t.request('PATCH', TENANTS, { body: [5, { id: created.id }] })).body).toEqual([{ id: ['This field is required.'] }, {}]);
  });

  it('bulk PATCH updates each listed object with its own attributes, all or nothing', async () => {
    const { body: rows } = await t.post(TENANTS, [{ name: 'U1', slug: 'u1' }, { name: 'U2', slug: 'u2' }]);
    const res = await t.request('PATCH', TENANTS, {
      body: [{ id: rows[0].id, description: 'first' }, { id: rows[1].id, comments: 'second' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.map((r: { description: string; comments: string }) => [r.description, r.comments])).toEqual([['first', ''], ['', 'second']]);

    const bad = await t.request('PATCH', TENANTS, { body: [{ id: rows[0].id, description: 'changed' }, { id: rows[1].id, slug: 'bad slug' }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual([{}, { slug: ['Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'] }]);
    expect((await t.get(`${TENANTS}${rows[0].id}/`)).body.description).toBe('first');

    expect((await t.request('PATCH', TENANTS, { body: [{ description: 'x' }] })).body).toEqual([{ id: ['This field is required.'] }]);
    expect((await t.request('PATCH', TENANTS, { body: { id: rows[0].id } })).body).toEqual({
      non_field_errors: ['Expected a list of items but got type "dict".'],
    });
  });

  it('bulk PUT replaces the listed objects', async () => {
    const { body: rows } = await t.post(TENANTS, [{ name: 'P1', slug: 'p1', description: 'old' }]);
    const res = await t.request('PUT', TENANTS, { body: [{ id: rows[0].id, name: 'P1b', slug: 'p1b' }] });
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ name: 'P1b', slug: 'p1b', description: 'old' });
  });
});

describe('delete', () => {
  it('DELETE answers 204 without a body', async () => {
    const { body } = await t.post(TENANTS, { name: 'Gone', slug: 'gone' });
    const res = await t.request('DELETE', `${TENANTS}${body.id}/`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await t.get(`${TENANTS}${body.id}/`)).status).toBe(404);
  });

  it('bulk DELETE removes every listed object', async () => {
    const { body: rows } = await t.post(TENANTS, [{ name: 'D1', slug: 'd1' }, { name: 'D2', slug: 'd2' }]);
    const res = await t.request('DELETE', TENANTS, { body: rows.map((r: { id: number }) => ({ id: r.id })) });
    expect(res.status).toBe(204);
    expect(await names()).not.toContain('D1');
    expect(await names()).not.toContain('D2');
  });

  it('checks uniqueness and tree moves across the objects of one bulk update', async () => {
    const { body: pair } = await t.post(TENANTS, [{ name: 'Swap A', slug: 'swap-a' }, { name: 'Swap B', slug: 'swap-b' }]);
    // PostgreSQL checks unique indexes row by row: two objects cannot trade names in one statement, so it is refused per item.
    const swap = await t.request('PATCH', TENANTS, { body: [{ id: pair[0].id, name: 'Swap B' }, { id: pair[1].id, name: 'Swap A' }] });
    expect(swap.status).toBe(400);
    expect(swap.body).toEqual([{ __all__: ['Tenant name must be globally unique.'] }, { __all__: ['Tenant name must be globally unique.'] }]);
    const { body: groups } = await t.post('/api/tenancy/tenant-groups/', [{ name: 'Loop 1', slug: 'loop-1' }, { name: 'Loop 2', slug: 'loop-2' }]);
    const loop = await t.request('PATCH', '/api/tenancy/tenant-groups/', { body: [{ id: groups[0].id, parent: groups[1].id }, { id: groups[1].id, parent: groups[0].id }] });
    expect(loop.status).toBe(400);
    expect(loop.body).toEqual([
      { parent: ['Cannot assign self or child Tenant Group as parent.'] },
      { parent: ['Cannot assign self or child Tenant Group as parent.'] },
    ]);
    // A chain is fine: 1 under 2, 2 stays a root.
    expect((await t.request('PATCH', '/api/tenancy/tenant-groups/', { body: [{ id: groups[0].id, parent: groups[1].id }] })).status).toBe(200);
  });

  it('refuses an object listed twice in one bulk update or delete, changing nothing', async () => {
    const { body: rows } = await t.post(TENANTS, [{ name: 'Twice', slug: 'twice' }]);
    const id = rows[0].id;
    const patch = await t.request('PATCH', TENANTS, { body: [{ id, description: 'a' }, { id, description: 'b' }] });
    expect(patch.status).toBe(400);
    expect(patch.body).toEqual([{}, { id: [`Object ${id} is listed more than once.`] }]);
    const del = await t.request('DELETE', TENANTS, { body: [{ id }, { id }] });
    expect(del.body).toEqual([{}, { id: [`Object ${id} is listed more than once.`] }]);
    expect((await t.get(`${TENANTS}${id}/`)).body.description).toBe('');
  });

  it('refuses with 409 a delete blocked by dependent objects, deleting nothing', async () => {
    const { body: role } = await t.post('/api/tenancy/contact-roles/', { name: 'Owner', slug: 'owner' });
    const { body: free } = await t.post('/api/tenancy/contact-roles/', { name: 'Free', slug: 'free' });
    const { body: contact } = await t.post('/api/tenancy/contacts/', { name: 'Kim' });
    const { body: tenant } = await t.post(TENANTS, { name: 'Held', slug: 'held' });
    const assignment = await t.post('/api/tenancy/contact-assignments/', {
      object_type: 'tenancy.tenant', object_id: tenant.id, contact: contact.id, role: role.id,
    });
    expect(assignment.status).toBe(201);
    const res = await t.request('DELETE', `/api/tenancy/contact-roles/${role.id}/`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      detail: `Unable to delete object. 1 dependent objects were found: Kim -> Held (${assignment.body.id})`,
    });
    const bulk = await t.request('DELETE', '/api/tenancy/contact-roles/', { body: [{ id: free.id }, { id: role.id }] });
    expect(bulk.status).toBe(409);
    expect((await t.get(`/api/tenancy/contact-roles/${free.id}/`)).status).toBe(200);
  });
});

describe('related objects in writes', () => {
  it('accepts an id, a numeric string or attributes matching exactly one object', async () => {
    const { body: parent } = await t.post('/api/tenancy/tenant-groups/', { name: 'Europe', slug: 'eu', description: 'region' });
    const { body: child } = await t.post('/api/tenancy/tenant-groups/', { name: 'Germany', slug: 'de', parent: { slug: 'eu' }, description: 'region' });
    expect(child.parent).toMatchObject({ id: parent.id, name: 'Europe', _depth: 0 });
    const nested = await t.post(TENANTS, { name: 'Nested', slug: 'nested', group: { name: 'Germany', parent: { slug: 'eu' } } });
    expect(nested.body.group.id).toBe(child.id);
    const numeric = await t.post(TENANTS, { name: 'Numeric', slug: 'numeric', group: String(parent.id) });
    expect(numeric.body.group.id).toBe(parent.id);
  });

  it('compares attributes for equality only: lookups and values of the wrong type are a 400, never a 500', async () => {
    expect((await t.post(TENANTS, { name: 'X', slug: 'x', group: { name__regex: '[' } })).body).toEqual({
      group: ["Cannot resolve keyword 'regex' into field."],
    });
    expect((await t.post(TENANTS, { name: 'X', slug: 'x', tags: [{ name__icontains: 'a' }] })).body).toEqual({
      tags: ["Cannot resolve keyword 'icontains' into field."],
    });
    expect((await t.post('/api/extras/custom-fields/', { name: 'sel', type: 'select', object_types: ['tenancy.tenant'], choice_set: { extra_choices: 'abc' } })).body).toEqual({
      choice_set: ['Related object not found using the provided attributes: {\'extra_choices\': \'abc\'}'],
    });
    expect((await t.post(TENANTS, { name: 'X', slug: 'x', group: { parent: { id: 99999999999 } } })).body).toEqual({
      group: ["Related object not found using the provided attributes: {'parent__id': 99999999999}"],
    });
  });

  it('answers 400 naming the field when attributes match zero or several objects', async () => {
    expect((await t.post(TENANTS, { name: 'X', slug: 'x', group: { slug: 'nowhere' } })).body).toEqual({
      group: ["Related object not found using the provided attributes: {'slug': 'nowhere'}"],
    });
    expect((await t.post(TENANTS, { name: 'X', slug: 'x', group: { description: 'region' } })).body).toEqual({
      group: ["Multiple objects match the provided attributes: {'description': 'region'}"],
    });
    expect((await t.post(TENANTS, { name: 'X', slug: 'x', group: { parent: { slug: 'eu' }, id: 'abc' } })).body).toEqual({
      group: ["Related object not found using the provided attributes: {'parent__slug': 'eu', 'id': 'abc'}"],
    });
    expect((await t.post(TENANTS, { name: 'X', slug: 'x', group: 424242 })).body).toEqual({
      group: ['Related object not found using the provided numeric ID: 424242'],
    });
    expect((await t.post(TENANTS, { name: 'X', slug: 'x', group: 'abc' })).body).toEqual({
      group: ['Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: abc'],
    });
    expect((await t.post(TENANTS, { name: 'X', slug: 'x', group: { colour: 'red' } })).body).toEqual({
      group: ["Cannot resolve keyword 'colour' into field."],
    });
  });

  it('resolves the attribute sets of a bulk write in one statement, each to its own object, whatever their shapes', async () => {
    await t.post('/api/tenancy/tenant-groups/', { name: 'Earth', slug: 'earth' });
    const groups = await t.post('/api/tenancy/tenant-groups/', [
      { name: 'Asia', slug: 'asia', description: 'continent' },
      { name: 'Africa', slug: 'africa', description: 'continent', parent: { slug: 'earth' } },
    ]);
    const [asia, africa] = groups.body as { id: number }[];
    const sets = [{ slug: 'asia' }, { slug: 'africa' }, { name: 'Asia', description: 'continent' }, { id: africa.id }, { id: String(asia.id) }, { parent: { slug: 'earth' }, name: 'Africa' }];
    const lookups = (good: unknown[], name = 'Lookup') => good.map((group, i) => ({ name: `${name} ${i}`, slug: `${name.toLowerCase()}-${i}`, group }));
    const counted = async (body: unknown[]) => {
      let reply = await t.post(TENANTS, []);
      const count = await t.countQueries(async () => {
        reply = await t.post(TENANTS, body);
      });
      return { count, reply };
    };
    const { reply, count } = await counted(lookups(sets));
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect((reply.body as { group: { id: number } }[]).map((r) => r.group.id)).toEqual([asia.id, africa.id, asia.id, africa.id, asia.id, africa.id]);
    await t.request('DELETE', TENANTS, { body: (reply.body as { id: number }[]).map(({ id }) => ({ id })) });
    // As many statements for six sets as for one.
    const one = await counted(lookups([{ slug: 'asia' }]));
    expect(one.reply.status).toBe(201);
    expect(one.count).toBe(count);

    const refused = await t.post(TENANTS, lookups([{ slug: 'asia' }, { slug: 'nowhere' }, { description: 'continent' }, { id: 'abc' }, { slug: 7 }], 'Refused'));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual([
      {},
      { group: ["Related object not found using the provided attributes: {'slug': 'nowhere'}"] },
      { group: ["Multiple objects match the provided attributes: {'description': 'continent'}"] },
      { group: ["Related object not found using the provided attributes: {'id': 'abc'}"] },
      { group: ["Related object not found using the provided attributes: {'slug': 7}"] },
    ]);

    // Text longer than its column is compared whole, never cut to the column's length first.
    const long = 'l'.repeat(100);
    await t.post('/api/tenancy/tenant-groups/', { name: 'Long', slug: long });
    const longer = await t.post(TENANTS, { name: 'Longer', slug: 'longer', group: { slug: `${long}x` } });
    expect(longer.status).toBe(400);
    expect(longer.body).toEqual({ group: [`Related object not found using the provided attributes: {'slug': '${long}x'}`] });
  });
});

describe('OPTIONS', () => {
  it('describes the POST fields of a list, with choices as {value, display_name}', async () => {
    const res = await t.request('OPTIONS', '/api/tenancy/contact-assignments/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Contact Assignment List',
      renders: ['application/json', 'text/html'],
      parses: ['application/json', 'multipart/form-data'],
    });
    const post = res.body.actions.POST;
    expect(post.id).toEqual({ type: 'integer', required: false, read_only: true, label: 'ID' });
    expect(post.priority).toEqual({
      type: 'field', required: false, read_only: false, label: 'Priority',
      choices: [
        { value: 'primary', display_name: 'Primary' },
        { value: 'secondary', display_name: 'Secondary' },
        { value: 'tertiary', display_name: 'Tertiary' },
        { value: 'inactive', display_name: 'Inactive' },
      ],
    });
    expect(post.object_type.choices).toContainEqual({ value: 'tenancy.tenant', display_name: 'tenancy | tenant' });
    expect(post.changelog_message).toEqual({ type: 'string', required: false, read_only: false, label: 'Changelog message' });
    expect(post.contact).toMatchObject({ type: 'nested object', required: true, children: { name: { type: 'string', max_length: 100 } } });
  });

  it('describes the PUT fields of a detail', async () => {
    const { body } = await t.post(TENANTS, { name: 'Opt', slug: 'opt' });
    const res = await t.request('OPTIONS', `${TENANTS}${body.id}/`);
    expect(res.body.name).toBe('Tenant Instance');
    expect(res.body.actions.PUT.slug).toEqual({ type: 'slug', required: true, read_only: false, label: 'Slug', max_length: 100 });
    expect(Object.keys(res.body.actions)).toEqual(['PUT']);
  });
});
