import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';
import { created, data, errors, graphql } from './helpers.js';

let t: TestServer;
let user: TestUser;
const ids: Record<string, number> = {};

/** Gives `user` exactly these view permissions: model → constraints (null for every object). */
async function allow(views: Record<string, unknown>): Promise<void> {
  await t.server.db.knex('users_objectpermission').delete();
  for (const [model, constraints] of Object.entries(views)) {
    const res = await t.post('/api/users/permissions/', { name: `view ${model}`, object_types: [model], actions: ['view'], constraints, users: [user.id] });
    expect(res.status).toBe(201);
  }
}

beforeAll(async () => {
  t = await startServer();
  user = await t.createUser('viewer');
  const acme = await created(t, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  const [paris, lyon] = await created(t, '/api/dcim/sites/', [
    { name: 'Paris', slug: 'paris', tenant: acme.id },
    { name: 'Lyon', slug: 'lyon' },
  ]);
  const maker = await created(t, '/api/dcim/manufacturers/', { name: 'Maker', slug: 'maker' });
  const type = await created(t, '/api/dcim/device-types/', { manufacturer: maker.id, model: 'Switch', slug: 'switch' });
  const role = await created(t, '/api/dcim/device-roles/', { name: 'Leaf', slug: 'leaf', color: '00ff00' });
  const [sw1, sw2] = await created(t, '/api/dcim/devices/', [
    { name: 'sw1', device_type: type.id, role: role.id, site: paris.id },
    { name: 'sw2', device_type: type.id, role: role.id, site: paris.id },
    { name: 'sw3', device_type: type.id, role: role.id, site: lyon.id },
  ]);
  const [a, b] = await created(t, '/api/dcim/interfaces/', [
    { device: sw1.id, name: 'eth0', type: '1000base-t' },
    { device: sw2.id, name: 'eth0', type: '1000base-t' },
  ]);
  await created(t, '/api/ipam/ip-addresses/', { address: '10.0.0.1/24', assigned_object_type: 'dcim.interface', assigned_object_id: a.id });
  const cable = await created(t, '/api/dcim/cables/', {
    a_terminations: [{ object_type: 'dcim.interface', object_id: a.id }], b_terminations: [{ object_type: 'dcim.interface', object_id: b.id }],
  });
  Object.assign(ids, { acme: acme.id, paris: paris.id, lyon: lyon.id, sw1: sw1.id, sw2: sw2.id, a: a.id, b: b.id, cable: cable.id });
});
afterAll(async () => {
  await t?.close();
});

const QUERY = `{ site_list { name tenant { name } device_count devices { name interface_count interfaces { name ip_addresses { address } } } } }`;

describe('object permissions in GraphQL', () => {
  it('apply at every level: lists, nested objects, nested lists and counts show only what the user may view', async () => {
    await allow({ 'dcim.site': { name: 'Paris' }, 'dcim.device': { name: 'sw1' }, 'dcim.interface': null });
    const seen = await data(t, QUERY, { token: user.token });
    expect(seen.site_list).toEqual([
      { name: 'Paris', tenant: null, device_count: 1, devices: [{ name: 'sw1', interface_count: 1, interfaces: [{ name: 'eth0', ip_addresses: [] }] }] },
    ]);
    // The same lists without the fields only resolvers answer, answered by PostgreSQL alone: the same objects.
    const lists = await graphql(t, '{ site_list { name devices { name interfaces { name ip_addresses { address } } } } }', { token: user.token });
    expect(lists.text).toMatch(/\{"name" : /);
    expect(lists.body.data.site_list).toEqual([{ name: 'Paris', devices: [{ name: 'sw1', interfaces: [{ name: 'eth0', ip_addresses: [] }] }] }]);
    // The admin sees everything, with the full counts.
    const all = await data(t, QUERY);
    expect(all.site_list.map((s: { name: string; device_count: number }) => [s.name, s.device_count])).toEqual([['Lyon', 1], ['Paris', 2]]);
  });

  it('hide objects from single-object queries as if they did not exist', async () => {
    await allow({ 'dcim.site': { name: 'Paris' } });
    expect(await errors(t, `{ site(id: "${ids.lyon}") { name } }`, { token: user.token })).toEqual(['Site matching query does not exist.']);
    expect((await data(t, `{ site(id: "${ids.paris}") { name } }`, { token: user.token })).site).toEqual({ name: 'Paris' });
  });

  it('leave out what a union or a reverse list would show of objects the user may not view', async () => {
    await allow({ 'dcim.cable': null, 'dcim.interface': { name: 'eth0', device__name: 'sw1' }, 'dcim.device': null });
    const { cable } = await data(t, `{ cable(id: "${ids.cable}") { a_terminations { ... on InterfaceType { name } } b_terminations { ... on InterfaceType { name } } } }`, {
      token: user.token,
    });
    expect(cable).toEqual({ a_terminations: [{ name: 'eth0' }], b_terminations: [] });
    const { device_list } = await data(t, '{ device_list { name interfaces { name } } }', { token: user.token });
    expect(device_list).toEqual([
      { name: 'sw1', interfaces: [{ name: 'eth0' }] },
      { name: 'sw2', interfaces: [] },
      { name: 'sw3', interfaces: [] },
    ]);
  });

  it('answer an empty list, not a 403, for a model the user may not view at all', async () => {
    await allow({});
    expect((await data(t, '{ site_list { name } vlan_list { vid } }', { token: user.token }))).toEqual({ site_list: [], vlan_list: [] });
  });

  it('apply to filters on related objects as to the objects: a hidden object matches no filter of the user', async () => {
    await allow({ 'dcim.site': null, 'dcim.device': { name: 'sw1' }, 'tenancy.tenant': { slug: 'nobody' } });
    const sites = async (filters: string, token = user.token) => (await data(t, `{ site_list(filters: ${filters}) { name } }`, { token })).site_list;
    expect(await sites('{devices: {name: {exact: "sw2"}}}')).toEqual([]);
    expect(await sites('{devices: {name: {exact: "sw1"}}}')).toEqual([{ name: 'Paris' }]);
    expect(await sites('{tenant: {slug: {exact: "acme"}}}')).toEqual([]);
    expect(await sites('{tenant: {slug: {exact: "acme"}}}', t.admin.token)).toEqual([{ name: 'Paris' }]);
  });
});
