import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/tenancy';

beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

describe('tenant groups (a tree)', () => {
  it('computes _depth and cumulative tenant_count, and refuses cycles', async () => {
    const { body: root } = await t.post(`${API}/tenant-groups/`, { name: 'Root', slug: 'root' });
    const { body: mid } = await t.post(`${API}/tenant-groups/`, { name: 'Mid', slug: 'mid', parent: root.id });
    const { body: leaf } = await t.post(`${API}/tenant-groups/`, { name: 'Leaf', slug: 'leaf', parent: mid.id });
    await t.post(`${API}/tenants/`, [
      { name: 'A', slug: 'a', group: leaf.id },
      { name: 'B', slug: 'b', group: mid.id },
      { name: 'C', slug: 'c' },
    ]);
    const got = async (id: number) => (await t.get(`${API}/tenant-groups/${id}/`)).body;
    expect(await got(root.id)).toMatchObject({ _depth: 0, tenant_count: 2, parent: null });
    expect(await got(mid.id)).toMatchObject({ _depth: 1, tenant_count: 2 });
    expect(await got(leaf.id)).toMatchObject({
      _depth: 2,
      tenant_count: 1,
      parent: { id: mid.id, name: 'Mid', slug: 'mid', tenant_count: 0, _depth: 1 },
    });

    for (const parent of [root.id, leaf.id]) {
      const res = await t.request('PATCH', `${API}/tenant-groups/${root.id}/`, { body: { parent } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ parent: ['Cannot assign self or child Tenant Group as parent.'] });
    }
    expect((await t.post(`${API}/tenant-groups/`, { name: 'Root', slug: 'root2' })).body).toEqual({
      name: ['tenant group with this name already exists.'],
    });
  });

  it('deletes a group with its subtree and leaves its tenants without a group', async () => {
    const { body: top } = await t.post(`${API}/tenant-groups/`, { name: 'Top', slug: 'top' });
    const { body: sub } = await t.post(`${API}/tenant-groups/`, { name: 'Sub', slug: 'sub', parent: top.id });
    const { body: tenant } = await t.post(`${API}/tenants/`, { name: 'Orphan', slug: 'orphan', group: sub.id });
    expect((await t.request('DELETE', `${API}/tenant-groups/${top.id}/`)).status).toBe(204);
    expect((await t.get(`${API}/tenant-groups/${sub.id}/`)).status).toBe(404);
    expect((await t.get(`${API}/tenants/${tenant.id}/`)).body.group).toBeNull();
  });

  it('allows the same tenant name in different groups but not twice in one', async () => {
    const { body: g } = await t.post(`${API}/tenant-groups/`, { name: 'G', slug: 'g' });
    expect((await t.post(`${API}/tenants/`, { name: 'Same', slug: 'same', group: g.id })).status).toBe(201);
    expect((await t.post(`${API}/tenants/`, { name: 'Same', slug: 'same' })).status).toBe(201);
    expect((await t.post(`${API}/tenants/`, { name: 'Same', slug: 'same-2', group: g.id })).body).toEqual({
      __all__: ['Tenant name must be unique per group.'],
    });
  });
});

describe('contacts', () => {
  it('writes groups as a list of ids or attributes and reads them nested, counting contacts per group tree', async () => {
    const { body: parent } = await t.post(`${API}/contact-groups/`, { name: 'Ops', slug: 'ops' });
    const { body: child } = await t.post(`${API}/contact-groups/`, { name: 'NOC', slug: 'noc', parent: parent.id });
    const res = await t.post(`${API}/contacts/`, { name: 'Ana', email: 'ana@example.com', groups: [child.id, { slug: 'ops' }] });
    expect(res.status).toBe(201);
    expect(res.body.groups.map((g: { name: string }) => g.name)).toEqual(['NOC', 'Ops']);
    expect(res.body.groups[0]).toEqual({
      id: child.id, url: `${t.base}${API}/contact-groups/${child.id}/`, display: 'NOC', name: 'NOC', slug: 'noc',
      description: '', contact_count: 0, _depth: 1,
    });
    await t.post(`${API}/contacts/`, { name: 'Bo', groups: [child.id] });
    expect((await t.get(`${API}/contact-groups/${parent.id}/`)).body.contact_count).toBe(2);
    expect((await t.get(`${API}/contact-groups/${child.id}/`)).body.contact_count).toBe(2);

    const cleared = await t.request('PATCH', `${API}/contacts/${res.body.id}/`, { body: { groups: [] } });
    expect(cleared.body.groups).toEqual([]);
    expect((await t.post(`${API}/contacts/`, { name: 'Cy', groups: 3 })).body).toEqual({ groups: ['Expected a list of items but got type "int".'] });
    expect((await t.post(`${API}/contacts/`, { name: 'Cy', email: 'nope', link: 'ftp:/x' })).body).toEqual({
      email: ['Enter a valid email address.'],
      link: ['Enter a valid URL.'],
    });
  });
});

describe('contact assignments (a generic relation)', () => {
  it('writes object_type + object_id and reads the object back nested', async () => {
    const { body: tenant } = await t.post(`${API}/tenants/`, { name: 'Assigned', slug: 'assigned' });
    const { body: contact } = await t.post(`${API}/contacts/`, { name: 'Dee' });
    const { body: role } = await t.post(`${API}/contact-roles/`, { name: 'Billing', slug: 'billing' });
    const res = await t.post(`${API}/contact-assignments/`, {
      object_type: 'tenancy.tenant', object_id: tenant.id, contact: contact.id, role: { slug: 'billing' }, priority: 'primary',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      display: 'Dee (Primary) -> Assigned',
      object_type: 'tenancy.tenant',
      object_id: tenant.id,
      object: { id: tenant.id, url: `${t.base}${API}/tenants/${tenant.id}/`, display: 'Assigned', name: 'Assigned', slug: 'assigned', description: '' },
      contact: { id: contact.id, name: 'Dee' },
      role: { id: role.id, slug: 'billing' },
      priority: { value: 'primary', label: 'Primary' },
    });
    const brief = await t.get(`${API}/contact-assignments/${res.body.id}/?brief=1`);
    expect(Object.keys(brief.body)).toEqual(['id', 'url', 'display', 'contact', 'role', 'priority']);

    const cleared = await t.request('PATCH', `${API}/contact-assignments/${res.body.id}/`, { body: { priority: null } });
    expect(cleared.body.priority).toBeNull();
    expect(cleared.body.display).toBe('Dee -> Assigned');

    expect((await t.request('DELETE', `${API}/tenants/${tenant.id}/`)).status).toBe(204);
    expect((await t.get(`${API}/contact-assignments/${res.body.id}/`)).status).toBe(404);
  });

  it('validates the generic relation and the choice', async () => {
    const { body: contact } = await t.post(`${API}/contacts/`, { name: 'Eve' });
    const post = (body: object) => t.post(`${API}/contact-assignments/`, { contact: contact.id, ...body });
    expect((await post({})).body).toEqual({ object_type: ['This field is required.'], object_id: ['This field is required.'] });
    expect((await post({ object_type: 'tenant', object_id: 1 })).body).toEqual({
      object_type: ["Invalid value. Specify a content type as '<app_label>.<model_name>'."],
    });
    expect((await post({ object_type: 'tenancy.contactrole', object_id: 1 })).body).toEqual({
      object_type: ['Invalid content type: tenancy.contactrole'],
    });
    expect((await post({ object_type: 'tenancy.tenant', object_id: 98765 })).body).toEqual({
      object_id: ['Related object not found using the provided value: 98765.'],
    });
    const { body: tenant } = await t.post(`${API}/tenants/`, { name: 'Valid', slug: 'valid' });
    expect((await post({ object_type: 'tenancy.tenant', object_id: tenant.id, priority: 'urgent' })).body).toEqual({
      priority: ['urgent is not a valid choice.'],
    });
    expect((await post({ object_type: 'tenancy.tenant', object_id: tenant.id, priority: { value: 'primary' } })).body).toEqual({
      priority: ['Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.'],
    });
  });
});

describe('contact filters on objects with contacts', () => {
  it('selects objects by assigned contact, role and contact group (a group matching its descendants)', async () => {
    const { body: parent } = await t.post(`${API}/contact-groups/`, { name: 'NOC', slug: 'noc' });
    const { body: child } = await t.post(`${API}/contact-groups/`, { name: 'NOC EU', slug: 'noc-eu', parent: parent.id });
    const { body: ann } = await t.post(`${API}/contacts/`, { name: 'Ann', groups: [child.id] });
    const { body: bob } = await t.post(`${API}/contacts/`, { name: 'Bob' });
    const { body: role } = await t.post(`${API}/contact-roles/`, { name: 'On call', slug: 'on-call' });
    const { body: tenants } = await t.post(`${API}/tenants/`, [
      { name: 'Cf one', slug: 'cf-one' },
      { name: 'Cf two', slug: 'cf-two' },
      { name: 'Cf three', slug: 'cf-three' },
    ]);
    await t.post(`${API}/contact-assignments/`, [
      { object_type: 'tenancy.tenant', object_id: tenants[0].id, contact: ann.id, role: role.id },
      { object_type: 'tenancy.tenant', object_id: tenants[1].id, contact: bob.id },
    ]);
    const names = async (query: string) => (await t.get(`${API}/tenants/?slug__isw=cf-&${query}`)).body.results.map((r: { name: string }) => r.name);
    expect(await names(`contact=${ann.id}`)).toEqual(['Cf one']);
    expect(await names(`contact=${ann.id}&contact=${bob.id}`)).toEqual(['Cf one', 'Cf two']);
    expect(await names(`contact__n=${ann.id}`)).toEqual(['Cf three', 'Cf two']);
    expect(await names(`contact_role=${role.id}`)).toEqual(['Cf one']);
    expect(await names(`contact_group=${parent.id}`)).toEqual(['Cf one']);
    expect(await names(`contact_group=${child.id}`)).toEqual(['Cf one']);
    const bad = await t.get(`${API}/tenants/?contact=987654`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ contact: ['Select a valid choice. 987654 is not one of the available choices.'] });
    expect((await t.get(`${API}/tenants/?contact_group=x`)).status).toBe(400);
  });
});
