import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientSchema, getIntrospectionQuery, getNamedType, isObjectType, isUnionType, type GraphQLObjectType, type IntrospectionQuery } from 'graphql';
import { startServer, type TestServer } from '../helpers/server.js';
import { created, data, graphql } from './helpers.js';

let t: TestServer;
const sites: number[] = [];
let scalars: (type: string) => string;

beforeAll(async () => {
  t = await startServer();
  const tenant = await created(t, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  for (const [name, slug] of [['Paris', 'paris'], ['Lyon', 'lyon'], ['Empty', 'empty']]) sites.push((await created(t, '/api/dcim/sites/', { name, slug })).id);
  const maker = await created(t, '/api/dcim/manufacturers/', { name: 'Maker', slug: 'maker' });
  const type = await created(t, '/api/dcim/device-types/', { manufacturer: maker.id, model: 'Switch', slug: 'switch', u_height: 1 });
  const role = await created(t, '/api/dcim/device-roles/', { name: 'Leaf', slug: 'leaf', color: '00ff00' });
  const rack = await created(t, '/api/dcim/racks/', { name: 'R1', site: sites[0] });
  // Values of every kind a row holds: text, numbers, a decimal position, booleans, JSON, nulls, timestamps, enums.
  const devices = await created(t, '/api/dcim/devices/', [
    { name: 'sw1', device_type: type.id, role: role.id, site: sites[0], rack: rack.id, position: 2.5, face: 'front', serial: 'ab"c\\d', tenant: tenant.id, local_context_data: { a: [1, { b: null }], 'é': 'ü' }, comments: 'line\nbreak' },
    { name: 'sw2', device_type: type.id, role: role.id, site: sites[0], status: 'planned', latitude: 48.8566, longitude: 2.3522 },
    { name: 'sw3', device_type: type.id, role: role.id, site: sites[1], description: "it's" },
  ]);
  await created(t, '/api/dcim/interfaces/', [
    { device: devices[0].id, name: 'eth0', type: '1000base-t', mtu: 9000, speed: 10000000, mac_address: '00:11:22:33:44:55', enabled: false, mgmt_only: true },
    { device: devices[0].id, name: 'eth1', type: '10gbase-x-sfpp', description: 'uplink' },
    { device: devices[2].id, name: 'eth0', type: '1000base-t', wwn: '50:01:43:80:12:34:56:78' },
  ]);
  const schema = buildClientSchema((await data(t, getIntrospectionQuery())) as IntrospectionQuery);
  // Every field of a type that is no object: what a row's columns render.
  scalars = (name) => Object.values((schema.getType(name) as GraphQLObjectType).getFields())
    .filter((f) => !isObjectType(getNamedType(f.type)) && !isUnionType(getNamedType(f.type)))
    .map((f) => f.name).join(' ');
});
afterAll(async () => {
  await t?.close();
});

describe('GraphQL lists read with their root list', () => {
  it('answer what each object read on its own answers, value for value', async () => {
    const selection = `id name devices { ${scalars('DeviceType')} interfaces { ${scalars('InterfaceType')} } }`;
    const listed = (await data(t, `{ site_list { ${selection} } }`)).site_list as { id: string }[];
    expect(listed).toHaveLength(3);
    for (const site of listed) {
      // One site on its own: its devices in a statement of their own.
      expect((await data(t, `{ site(id: "${site.id}") { ${selection} } }`)).site).toEqual(site);
    }
    const devices = listed.flatMap((s) => (s as unknown as { devices: Record<string, unknown>[] }).devices);
    // Sites by name (Empty, Lyon, Paris), each one's devices by name.
    expect(devices.map((d) => d.name)).toEqual(['sw3', 'sw1', 'sw2']);
    expect(devices[1]).toMatchObject({ position: '2.5', serial: 'ab"c\\d', local_context_data: { a: [1, { b: null }], 'é': 'ü' }, comments: 'line\nbreak' });
    expect(devices[1].created).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+/);
  });

  it('with their filters and pages, and each list of a root object in its order', async () => {
    const query = (site: string) => `{ ${site} { name devices(filters: {status: STATUS_ACTIVE}, pagination: {limit: 1, offset: 1}) { name } all: devices { name interfaces(filters: {enabled: true}) { name } } } }`;
    const listed = (await data(t, query('site_list'))).site_list;
    expect(listed).toEqual([
      { name: 'Empty', devices: [], all: [] },
      { name: 'Lyon', devices: [], all: [{ name: 'sw3', interfaces: [{ name: 'eth0' }] }] },
      { name: 'Paris', devices: [], all: [{ name: 'sw1', interfaces: [{ name: 'eth1' }] }, { name: 'sw2', interfaces: [] }] },
    ]);
    await created(t, '/api/dcim/devices/', { name: 'sw0', device_type: (await t.get('/api/dcim/device-types/')).body.results[0].id, role: (await t.get('/api/dcim/device-roles/')).body.results[0].id, site: sites[0] });
    expect((await data(t, query('site_list'))).site_list[2].devices).toEqual([{ name: 'sw1' }]);
    await t.request('DELETE', `/api/dcim/devices/${(await t.get('/api/dcim/devices/?name=sw0')).body.results[0].id}/`);
  });

  it('run one statement for the root list and its lists, and one more for each level below', async () => {
    const base = await t.countQueries(() => graphql(t, '{ __typename }'));
    // `class_type` has no SQL: the resolvers answer (PostgreSQL alone answers the same queries without it).
    expect(await t.countQueries(() => data(t, '{ site_list { name class_type devices { name } } }'))).toBe(base + 1);
    expect(await t.countQueries(() => data(t, '{ site_list { name class_type devices { name } racks { name } } }'))).toBe(base + 1);
    expect(await t.countQueries(() => data(t, '{ site_list { name class_type devices { name interfaces { name } } } }'))).toBe(base + 2);
  });

  it('leave a list whose filter is refused to its resolver, which reports it at its path', async () => {
    const res = await graphql(t, '{ site_list { name devices(filters: {name: {regex: "["}}) { name } } }');
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors.length).toBeGreaterThan(0);
    for (const error of res.body.errors) expect(error.message).toMatch(/^filters\.name: Invalid regular expression/);
    expect(res.body.errors[0].path).toEqual(['site_list', 0, 'devices']);
  });
});
