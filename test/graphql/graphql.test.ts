import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PLUGIN, startServer, type Body, type TestServer } from '../helpers/server.js';
import { created, data, errors, graphql } from './helpers.js';

let t: TestServer;
const ids: Record<string, number> = {};

/**
 * A small network: two sites in a region tree (one tagged, with a custom field), three devices, interfaces with
 * addresses, a VLAN with a prefix scoped to a site, a cable between two interfaces.
 */
beforeAll(async () => {
  t = await startServer({ plugins: [EXAMPLE_PLUGIN] });
  const group = await created(t, '/api/tenancy/tenant-groups/', { name: 'Customers', slug: 'customers' });
  const acme = await created(t, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme', group: group.id });
  const emea = await created(t, '/api/dcim/regions/', { name: 'EMEA', slug: 'emea' });
  const france = await created(t, '/api/dcim/regions/', { name: 'France', slug: 'france', parent: emea.id });
  const tag = await created(t, '/api/extras/tags/', { name: 'Core', slug: 'core', color: 'ff0000' });
  await created(t, '/api/extras/custom-fields/', { name: 'owner', type: 'text', object_types: ['dcim.site'] });
  const paris = await created(t, '/api/dcim/sites/', {
    name: 'Paris', slug: 'paris', region: france.id, tenant: acme.id, status: 'active', latitude: 48.8566, tags: [tag.id], custom_fields: { owner: 'netops' },
  });
  const lyon = await created(t, '/api/dcim/sites/', { name: 'Lyon', slug: 'lyon', region: emea.id, status: 'planned' });
  const maker = await created(t, '/api/dcim/manufacturers/', { name: 'Maker', slug: 'maker' });
  const type = await created(t, '/api/dcim/device-types/', { manufacturer: maker.id, model: 'Switch', slug: 'switch' });
  const role = await created(t, '/api/dcim/device-roles/', { name: 'Leaf', slug: 'leaf', color: '00ff00' });
  const [sw1, sw2, sw3] = await created(t, '/api/dcim/devices/', [
    { name: 'sw1', device_type: type.id, role: role.id, site: paris.id, tenant: acme.id },
    { name: 'sw2', device_type: type.id, role: role.id, site: paris.id },
    { name: 'sw3', device_type: type.id, role: role.id, site: lyon.id },
  ]);
  const [eth0, eth1, eth2, eth3] = await created(t, '/api/dcim/interfaces/', [
    { device: sw1.id, name: 'eth0', type: '1000base-t' },
    { device: sw1.id, name: 'eth1', type: '1000base-t', enabled: false, mtu: 9000 },
    { device: sw2.id, name: 'eth0', type: '1000base-t', mtu: 1500 },
    { device: sw3.id, name: 'eth0', type: '10gbase-x-sfpp' },
  ]);
  const vlanGroup = await created(t, '/api/ipam/vlan-groups/', { name: 'Campus', slug: 'campus' });
  const vlan = await created(t, '/api/ipam/vlans/', { vid: 100, name: 'users', group: vlanGroup.id });
  await created(t, '/api/ipam/vlans/', { vid: 200, name: 'voice', group: vlanGroup.id, status: 'reserved' });
  await created(t, '/api/ipam/prefixes/', { prefix: '10.0.0.0/24', vlan: vlan.id, scope_type: 'dcim.site', scope_id: paris.id });
  const [ip1, , ip3] = await created(t, '/api/ipam/ip-addresses/', [
    { address: '10.0.0.1/24', assigned_object_type: 'dcim.interface', assigned_object_id: eth0.id, tenant: acme.id },
    { address: '10.0.0.2/24', assigned_object_type: 'dcim.interface', assigned_object_id: eth2.id },
    { address: '10.0.0.3/24', status: 'reserved' },
  ]);
  const cable = await created(t, '/api/dcim/cables/', {
    a_terminations: [{ object_type: 'dcim.interface', object_id: eth1.id }], b_terminations: [{ object_type: 'dcim.interface', object_id: eth2.id }], label: 'c1',
  });
  const window = await created(t, '/api/plugins/maintenance/windows/', { name: 'Upgrade', starts: new Date(Date.now() + 86_400_000).toISOString(), target_version: '2.10.1' });
  Object.assign(ids, {
    group: group.id, acme: acme.id, emea: emea.id, france: france.id, tag: tag.id, paris: paris.id, lyon: lyon.id, sw1: sw1.id, sw2: sw2.id, sw3: sw3.id,
    eth0: eth0.id, eth1: eth1.id, eth2: eth2.id, eth3: eth3.id, vlan: vlan.id, ip1: ip1.id, ip3: ip3.id, cable: cable.id, window: window.id,
  });
});
afterAll(async () => {
  await t?.close();
});

const names = (list: { name: string }[]) => list.map((o) => o.name);

describe('the endpoint', () => {
  it('answers POST on /graphql/ and /graphql, and GET with ?query=', async () => {
    const query = '{ site(id: "1") { name } }';
    expect((await graphql(t, query)).body).toEqual({ data: { site: { name: 'Paris' } } });
    expect((await graphql(t, query, { path: '/graphql' })).body).toEqual({ data: { site: { name: 'Paris' } } });
    const get = await t.get(`/graphql/?query=${encodeURIComponent('query Q($n: String) { site_list(filters: {name: {exact: $n}}) { id } }')}&variables=${encodeURIComponent('{"n":"Lyon"}')}`);
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ data: { site_list: [{ id: String(ids.lyon) }] } });
  });

  it('chooses the operation by operationName', async () => {
    const res = await t.post('/graphql/', { query: 'query A { site(id: "1") { name } } query B { site(id: "2") { slug } }', operationName: 'B' });
    expect(res.body).toEqual({ data: { site: { slug: 'lyon' } } });
  });

  it('is read-only: no mutation type, a mutation is an error and changes nothing', async () => {
    const res = await graphql(t, 'mutation { site_delete(id: "1") { id } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/mutation/i);
    expect((await data(t, '{ __schema { mutationType { name } subscriptionType { name } } }')).__schema).toEqual({ mutationType: null, subscriptionType: null });
    expect((await t.get(`/api/dcim/sites/${ids.paris}/`)).status).toBe(200);
  });

  it('answers syntax, validation and request errors as {"errors": [...]} with 400, never a 5xx', async () => {
    const syntax = await graphql(t, '{ site_list { name ');
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors[0].message).toMatch(/Syntax Error/);
    const unknown = await graphql(t, '{ site_list { nonsense } }');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toBe('Cannot query field "nonsense" on type "SiteType".');
    expect((await t.post('/graphql/', { nothing: 1 })).body).toEqual({ errors: [{ message: 'Must provide query string.' }] });
    expect((await t.post('/graphql/', [1, 2])).status).toBe(400);
    expect((await t.post('/graphql/', { query: '{ site_list { id } }', variables: [1] })).body).toEqual({ errors: [{ message: 'Variables must be a JSON object.' }] });
    expect((await t.get('/graphql/?query=%7Bsite_list%7Bid%7D%7D&variables=%7Bnope')).body).toEqual({ errors: [{ message: 'Variables are invalid JSON.' }] });
    const wrongType = await graphql(t, 'query($id: ID!) { site(id: $id) { name } }', { variables: { id: { nested: true } } });
    expect(wrongType.status).toBe(400);
    const put = await t.request('PUT', '/graphql/', { body: { query: '{ site_list { id } }' } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });

  it('answers a missing or hidden object with an error and null, as NetBox', async () => {
    const res = await graphql(t, '{ site(id: "999") { name } }');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { site: null }, errors: [{ message: 'Site matching query does not exist.', path: ['site'] }] });
    expect((await graphql(t, '{ site(id: "x") { name } }')).body.data).toEqual({ site: null });
  });

  it('serves GraphiQL from local files to a browser, behind the login', async () => {
    const page = await t.get('/graphql/', { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="graphiql"');
    expect(page.text).not.toMatch(/https?:\/\//);
    for (const file of [...page.text.matchAll(/(?:src|href)="(\/static\/graphiql\/[^"]+)"/g)].map((m) => m[1])) {
      const asset = await t.get(file, { token: null });
      expect(asset.status, file).toBe(200);
    }
    const anonymous = await t.get('/graphql/', { token: null, headers: { Accept: 'text/html' } });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/login/?next=%2Fgraphql%2F');
  });
});

describe('authentication', () => {
  it('refuses a request without credentials with the REST API 403', async () => {
    const res = await graphql(t, '{ site_list { id } }', { token: null });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('takes the same tokens: an expired one or one from outside its allowed IPs is refused', async () => {
    const expired = await t.createUser('expired', { tokenFields: { expires: new Date(Date.now() - 60_000) } });
    expect((await graphql(t, '{ site_list { id } }', { token: expired.token })).status).toBe(403);
    const fenced = await t.createUser('fenced', { superuser: true, tokenFields: { allowed_ips: ['192.0.2.0/24'] } });
    expect((await graphql(t, '{ site_list { id } }', { token: fenced.token })).status).toBe(403);
    const readOnly = await t.createUser('reader', { superuser: true, tokenFields: { write_enabled: false } });
    expect((await data(t, '{ site_list { id } }', { token: readOnly.token })).site_list).toHaveLength(2);
  });

  it('takes a browser session (no CSRF token needed: nothing is written)', async () => {
    const login = await t.get('/login/', { token: null });
    const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(login.text)![1];
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const form = new URLSearchParams({ username: 'admin', password: 'correct horse battery', csrfmiddlewaretoken: csrf, next: '/graphql/' });
    const posted = await fetch(`${t.base}/login/`, { method: 'POST', body: form, headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
    const session = posted.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const res = await fetch(`${t.base}/graphql/`, { method: 'POST', headers: { Cookie: `${cookie}; ${session}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ site(id: "2") { name } }' }) });
    expect(await res.json()).toEqual({ data: { site: { name: 'Lyon' } } });
  });
});

describe('the schema', () => {
  // NetBox 4.4.10's names, extracted from the team reference into the fixture.
  const ref = JSON.parse(readFileSync(new URL('../fixtures/graphql-reference.json', import.meta.url), 'utf8'));
  const reference = ref.models as Record<string, { graphql?: { type: string; query: [string, string] | null } }>;

  it("names every model's type and root fields as NetBox does", async () => {
    const { __schema } = await data(t, '{ __schema { queryType { fields { name type { name ofType { ofType { ofType { name } } } } } } } }');
    const roots = new Map<string, string>(__schema.queryType.fields.map((f: Body) => [f.name, f.type.name ?? f.type.ofType.ofType.ofType.name]));
    const checked: string[] = [];
    for (const model of t.server.registry.all().filter((m) => m.served && m.decl.graphql !== false)) {
      const ref = reference[model.key]?.graphql;
      if (!ref?.query) continue;
      expect(roots.get(ref.query[0]), `${model.key} ${ref.query[0]}`).toBe(ref.type);
      expect(roots.get(ref.query[1]), `${model.key} ${ref.query[1]}`).toBe(ref.type);
      checked.push(model.key);
    }
    expect(checked.length).toBeGreaterThan(90);
    // Tokens and permissions stay out of GraphQL.
    expect([...roots.keys()].filter((n) => /token|permission/.test(n))).toEqual([]);
  });

  it('names enums, their members and unions as NetBox does', async () => {
    const { __schema } = await data(t, '{ __schema { types { name kind enumValues { name } possibleTypes { name } inputFields { name type { name } } } } }');
    const types = new Map<string, Body>(__schema.types.map((type: Body) => [type.name, type]));
    // Filters NetBox takes as an enum: the same enum here (colors and cable ends are compared as text, custom field
    // definitions' UI settings are not modelled).
    const gaps = /^(color|cable_end|ui_visible|ui_editable|base_choices)$/;
    let enums = 0;
    for (const [key, model] of Object.entries<Body>(ref.models)) {
      const input = model.graphql?.filter_input && types.get(model.graphql.filter_input);
      if (!input) continue;
      for (const [name, kind, enumName] of model.graphql.filters.split(' ').map((f: string) => f.split(':'))) {
        if (kind !== 'enum' || gaps.test(name)) continue;
        expect(input.inputFields.find((f: Body) => f.name === name)?.type.name, `${key} ${name}`).toBe(`${enumName}Lookup`);
        enums++;
      }
    }
    expect(enums).toBeGreaterThan(50);
    // Members: the prefix and the value in upper case, other characters as `_`.
    for (const model of t.server.registry.all()) {
      for (const field of [...model.fields, ...t.server.registry.contributedFields(model)]) {
        for (const p of field.describe(t.server.registry).filter((d) => d.choices && d.labelled && d.enum?.name)) {
          const spec = ref.graphql_enums[p.enum!.name!];
          if (!spec || !types.has(p.enum!.name!)) continue;
          const prefix = spec.member_prefix ?? '';
          const expected = p.choices!.map((c) => `${prefix}${c.value}`.toUpperCase().replace(/[^_A-Z0-9]/g, '_'));
          expect(types.get(p.enum!.name!).enumValues.map((v: Body) => v.name), p.enum!.name).toEqual(expected);
        }
      }
    }
    // Unions: NetBox's names, with the members of NetBox's that exist here.
    for (const [name, members] of Object.entries<string[]>(ref.graphql_unions)) {
      if (/^(L2VPN|WirelessLAN|InventoryItemTemplate)/.test(name)) continue;
      expect(types.get(name)?.kind, name).toBe('UNION');
      expect(types.get(name).possibleTypes.map((m: Body) => m.name).sort(), name).toEqual(members.filter((m) => types.has(m)).sort());
    }
  });

  it('renders scalars as NetBox does: ids as text, choices raw, decimals as text, datetimes with an offset, JSON as JSON', async () => {
    const { site } = await data(t, `{ site(id: "${ids.paris}") { id name status latitude created last_updated custom_fields display class_type time_zone } }`);
    expect(site).toMatchObject({ id: String(ids.paris), name: 'Paris', status: 'active', latitude: '48.856600', display: 'Paris', class_type: 'Site', time_zone: null });
    expect(site.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?\+00:00$/);
    expect(site.custom_fields).toEqual({ owner: 'netops' });
    const { ip_address } = await data(t, `{ ip_address(id: "${ids.ip1}") { address family { value label } status } }`);
    expect(ip_address).toEqual({ address: '10.0.0.1/24', family: { value: 4, label: 'IPv4' }, status: 'active' });
  });

  it('nests foreign keys as objects, reverse relations and many-to-many fields as lists with their own filters and pages', async () => {
    const { site_list } = await data(t, `{ site_list(filters: {name: {exact: "Paris"}}) {
      region { name parent { name } } tenant { name group { slug } } tags { name color }
      devices { name interfaces(filters: {enabled: true}) { name ip_addresses { address } } }
      prefixes { prefix vlan { vid group { name } } }
    } }`);
    expect(site_list).toEqual([{
      region: { name: 'France', parent: { name: 'EMEA' } },
      tenant: { name: 'Acme', group: { slug: 'customers' } },
      tags: [{ name: 'Core', color: 'ff0000' }],
      devices: [
        { name: 'sw1', interfaces: [{ name: 'eth0', ip_addresses: [{ address: '10.0.0.1/24' }] }] },
        { name: 'sw2', interfaces: [{ name: 'eth0', ip_addresses: [{ address: '10.0.0.2/24' }] }] },
      ],
      prefixes: [{ prefix: '10.0.0.0/24', vlan: { vid: 100, group: { name: 'Campus' } } }],
    }]);
    const paged = await data(t, `{ device(id: "${ids.sw1}") { interfaces(pagination: {offset: 1, limit: 1}) { name } } }`);
    expect(paged.device.interfaces).toEqual([{ name: 'eth1' }]);
    // A page of each device's list, devices without interfaces among them, as REST pages each device's.
    const { device_list } = await data(t, '{ device_list { id interfaces(pagination: {offset: 1, limit: 1}) { name } ip_addresses: interfaces { ip_addresses { address } } } }');
    expect(device_list.some((d: { interfaces: unknown[] }) => !d.interfaces.length)).toBe(true);
    for (const device of device_list as { id: string; interfaces: { name: string }[]; ip_addresses: { ip_addresses: { address: string }[] }[] }[]) {
      const rest = (await t.get(`/api/dcim/interfaces/?device_id=${device.id}&offset=1&limit=1`)).body.results as { name: string }[];
      expect(device.interfaces).toEqual(rest.map((i) => ({ name: i.name })));
      const addresses = (await t.get(`/api/ipam/ip-addresses/?device_id=${device.id}&limit=0`)).body.results as { address: string }[];
      expect(device.ip_addresses.flatMap((i) => i.ip_addresses.map((a) => a.address)).sort()).toEqual(addresses.map((a) => a.address).sort());
    }
  });

  it('queries generic relations as unions with inline fragments, each object with its class_type', async () => {
    const { ip_address_list } = await data(t, `{ ip_address_list { address assigned_object {
      __typename ... on InterfaceType { name class_type device { name } } ... on VMInterfaceType { name virtual_machine { name } }
    } } }`);
    expect(ip_address_list).toEqual([
      { address: '10.0.0.1/24', assigned_object: { __typename: 'InterfaceType', name: 'eth0', class_type: 'Interface', device: { name: 'sw1' } } },
      { address: '10.0.0.2/24', assigned_object: { __typename: 'InterfaceType', name: 'eth0', class_type: 'Interface', device: { name: 'sw2' } } },
      { address: '10.0.0.3/24', assigned_object: null },
    ]);
    const { cable } = await data(t, `{ cable(id: "${ids.cable}") {
      a_terminations { __typename ... on InterfaceType { id name } }
      b_terminations { ... on InterfaceType { id device { name } link_peers { ... on InterfaceType { name device { name } } } } }
    } }`);
    expect(cable).toEqual({
      a_terminations: [{ __typename: 'InterfaceType', id: String(ids.eth1), name: 'eth1' }],
      b_terminations: [{ id: String(ids.eth2), device: { name: 'sw2' }, link_peers: [{ name: 'eth1', device: { name: 'sw1' } }] }],
    });
    const { prefix_list } = await data(t, '{ prefix_list { scope { ... on SiteType { slug } } } }');
    expect(prefix_list).toEqual([{ scope: { slug: 'paris' } }]);
  });

  it("serves the example plugin's models from their declarations, with its own scalar and contributed field", async () => {
    const { maintenance_window_list } = await data(t, '{ maintenance_window_list { name status target_version upcoming tasks { name done } } }');
    expect(maintenance_window_list).toEqual([{
      name: 'Upgrade', status: 'scheduled', target_version: '2.10.1', upcoming: true,
      tasks: [{ name: 'Announce', done: false }, { name: 'Execute', done: false }, { name: 'Verify', done: false }],
    }]);
    const { __type } = await data(t, '{ __type(name: "MaintenanceWindowType") { fields { name type { name kind } } } }');
    expect(__type.fields.find((f: Body) => f.name === 'target_version').type).toEqual({ name: 'SemVer', kind: 'SCALAR' });
    const newer = await data(t, '{ maintenance_window_list(filters: {target_version: {gte: "2.9.0"}}) { name } }');
    expect(newer.maintenance_window_list).toEqual([{ name: 'Upgrade' }]);
    expect((await data(t, '{ maintenance_window_list(filters: {target_version: {gte: "2.11.0"}}) { name } }')).maintenance_window_list).toEqual([]);
  });
});

describe('filters', () => {
  const sites = async (filters: string) => names((await data(t, `{ site_list(filters: ${filters}) { name } }`)).site_list);
  const interfaces = async (filters: string) =>
    (await data(t, `{ interface_list(filters: ${filters}) { name device { name } } }`)).interface_list.map((i: Body) => `${i.device.name}:${i.name}`);

  it('takes string lookups', async () => {
    expect(await sites('{name: {exact: "Paris"}}')).toEqual(['Paris']);
    expect(await sites('{name: {i_exact: "paris"}}')).toEqual(['Paris']);
    expect(await sites('{name: {contains: "yo"}}')).toEqual(['Lyon']);
    expect(await sites('{name: {contains: "YO"}}')).toEqual([]);
    expect(await sites('{name: {i_contains: "YO"}}')).toEqual(['Lyon']);
    expect(await sites('{name: {starts_with: "Pa"}}')).toEqual(['Paris']);
    expect(await sites('{name: {i_starts_with: "pa"}}')).toEqual(['Paris']);
    expect(await sites('{name: {ends_with: "on"}}')).toEqual(['Lyon']);
    expect(await sites('{name: {i_ends_with: "ON"}}')).toEqual(['Lyon']);
    expect(await sites('{name: {regex: "^L.o"}}')).toEqual(['Lyon']);
    expect(await sites('{name: {i_regex: "^l.O"}}')).toEqual(['Lyon']);
    expect(await sites('{name: {in_list: ["Lyon", "Nice"]}}')).toEqual(['Lyon']);
    expect(await sites('{facility: {is_null: false}, description: {exact: ""}}')).toEqual(['Lyon', 'Paris']);
  });

  it('takes integer lookups, flat and in NetBox 4.4 wrappers', async () => {
    expect(await interfaces('{mtu: {exact: 9000}}')).toEqual(['sw1:eth1']);
    expect(await interfaces('{mtu: {gte: 1500}}')).toEqual(['sw1:eth1', 'sw2:eth0']);
    expect(await interfaces('{mtu: {gt: 1500, lt: 9001}}')).toEqual(['sw1:eth1']);
    expect(await interfaces('{mtu: {range: {start: 1000, end: 2000}}}')).toEqual(['sw2:eth0']);
    expect(await interfaces('{mtu: {in_list: [1500, 9000]}}')).toEqual(['sw1:eth1', 'sw2:eth0']);
    expect(await interfaces('{mtu: {is_null: true}}')).toEqual(['sw1:eth0', 'sw3:eth0']);
    expect(await interfaces('{mtu: {filter_lookup: {exact: 1500}}}')).toEqual(['sw2:eth0']);
    expect(await interfaces('{mtu: {comparison_lookup: {lte: 1500}}}')).toEqual(['sw2:eth0']);
    expect(await interfaces('{mtu: {range_lookup: {start: 9000, end: 9000}}}')).toEqual(['sw1:eth1']);
  });

  it('takes enum members bare and in lookups, and the short forms of NetBox 4.4 and 4.5', async () => {
    expect(await sites('{status: STATUS_ACTIVE}')).toEqual(['Paris']);
    expect(await sites('{status: {exact: STATUS_PLANNED}}')).toEqual(['Lyon']);
    expect(await sites('{status: {in_list: [STATUS_ACTIVE, STATUS_PLANNED]}}')).toEqual(['Lyon', 'Paris']);
    expect(await interfaces('{type: TYPE_10GBASE_X_SFPP}')).toEqual(['sw3:eth0']);
    expect(await interfaces('{enabled: false}')).toEqual(['sw1:eth1']);
    expect(await interfaces('{enabled: {exact: false}}')).toEqual(['sw1:eth1']);
    expect(await sites(`{id: "${ids.lyon}"}`)).toEqual(['Lyon']);
    expect(await sites(`{id: {exact: ${ids.lyon}}}`)).toEqual(['Lyon']);
    expect(await sites(`{id: [${ids.lyon}, ${ids.paris}]}`)).toEqual(['Lyon', 'Paris']);
    // The same short forms in variables.
    const viaVariables = await data(t, 'query($f: SiteFilter) { site_list(filters: $f) { name } }', { variables: { f: { status: 'STATUS_PLANNED', id: [String(ids.lyon)] } } });
    expect(names(viaVariables.site_list)).toEqual(['Lyon']);
    const scalarVariable = await data(t, 'query($n: String) { site_list(filters: {name: $n}) { name } }', { variables: { n: 'Paris' } });
    expect(names(scalarVariable.site_list)).toEqual(['Paris']);
  });

  it('filters by related objects with nested filters, and by id', async () => {
    expect(await sites('{tenant: {name: {exact: "Acme"}}}')).toEqual(['Paris']);
    expect(await sites('{tenant: {group: {slug: {exact: "customers"}}}}')).toEqual(['Paris']);
    expect(await sites(`{tenant_id: {exact: "${ids.acme}"}}`)).toEqual(['Paris']);
    expect(await sites('{tenant_id: {is_null: true}}')).toEqual(['Lyon']);
    expect(await sites('{tags: {slug: {exact: "core"}}}')).toEqual(['Paris']);
    expect(await sites('{devices: {name: {exact: "sw3"}}}')).toEqual(['Lyon']);
    expect(names((await data(t, '{ device_list(filters: {interfaces: {enabled: false, mtu: {exact: 9000}}}) { name } }')).device_list)).toEqual(['sw1']);
    // Both conditions on the same interface: sw1 has a disabled one and one without an MTU, none both.
    expect(names((await data(t, '{ device_list(filters: {interfaces: {enabled: false, mtu: {is_null: true}}}) { name } }')).device_list)).toEqual([]);
  });

  it('filters trees by node: the node, its descendants, children, ancestors, parent, siblings', async () => {
    const region = (match: string, id = ids.emea) => sites(`{region_id: {id: "${id}", match_type: ${match}}}`);
    expect(await region('EXACT')).toEqual(['Lyon']);
    expect(await region('SELF_AND_DESCENDANTS')).toEqual(['Lyon', 'Paris']);
    expect(await region('DESCENDANTS')).toEqual(['Paris']);
    expect(await region('CHILDREN')).toEqual(['Paris']);
    expect(await region('PARENT', ids.france)).toEqual(['Lyon']);
    expect(await region('ANCESTORS', ids.france)).toEqual(['Lyon']);
    expect(await region('SIBLINGS', ids.france)).toEqual([]);
    expect(await sites('{region: {parent: {slug: {exact: "emea"}}}}')).toEqual(['Paris']);
  });

  it('filters by custom field data, NetBox-style', async () => {
    expect(await sites('{custom_field_data: {path: "owner", lookup: {string_lookup: {i_contains: "NET"}}}}')).toEqual(['Paris']);
    expect(await sites('{custom_field_data: {path: "owner", lookup: {string_lookup: {exact: "other"}}}}')).toEqual([]);
  });

  it('combines with AND, OR, NOT and DISTINCT', async () => {
    expect(await sites('{status: STATUS_ACTIVE, OR: {name: {exact: "Lyon"}}}')).toEqual(['Lyon', 'Paris']);
    expect(await sites('{OR: [{name: {exact: "Lyon"}}, {name: {exact: "Paris"}}]}')).toEqual(['Lyon', 'Paris']);
    expect(await sites('{NOT: {name: {exact: "Lyon"}}}')).toEqual(['Paris']);
    expect(await sites('{AND: [{name: {i_contains: "a"}}, {name: {i_contains: "r"}}]}')).toEqual(['Paris']);
    expect(await sites('{devices: {name: {starts_with: "sw"}}, DISTINCT: true}')).toEqual(['Lyon', 'Paris']);
  });

  it("takes the REST API's filters that no field derives (q, tag, model methods)", async () => {
    expect(await sites('{q: "lyo"}')).toEqual(['Lyon']);
    expect(await sites('{tag: ["core"]}')).toEqual(['Paris']);
    expect(await sites('{tag: "core"}')).toEqual(['Paris']);
    const { ip_address_list } = await data(t, '{ ip_address_list(filters: {assigned: true, parent: ["10.0.0.0/24"], family: FAMILY_4}) { address } }');
    expect(ip_address_list.map((i: Body) => i.address)).toEqual(['10.0.0.1/24', '10.0.0.2/24']);
  });

  it('answers a bad filter with an error naming it, and runs no regular expression PostgreSQL refuses', async () => {
    expect(await errors(t, '{ site_list(filters: {name: {regex: "("}}) { id } }')).toEqual([expect.stringMatching(/^filters\.name: Invalid regular expression/)]);
    expect(await errors(t, '{ site_list(filters: {tag: ["nope"]}) { id } }')).toEqual([expect.stringMatching(/^filters\.tag: Select a valid choice/)]);
    expect(await errors(t, '{ site_list(filters: {custom_field_data: {path: "nope", lookup: {string_lookup: {exact: "x"}}}}) { id } }')).toEqual([
      expect.stringMatching(/^filters\.custom_field_data: /),
    ]);
    expect(await errors(t, '{ site_list(filters: {OR: [{}, {region_id: {id: "x", match_type: EXACT}}]}) { id } }')).toEqual(['filters.OR[1].region_id: "x" is not an id.']);
    const nested = await graphql(t, `{ device(id: "${ids.sw1}") { interfaces(filters: {name: {regex: "["}}) { name } } }`);
    expect(nested.body.data.device).toBeNull();
    expect(nested.body.errors[0].message).toMatch(/^filters\.name: Invalid regular expression/);
    expect(await errors(t, '{ site_list(filters: {status: STATUS_NOPE}) { id } }')).toEqual([expect.stringContaining('STATUS_NOPE')]);
  });

  it('answers a value an enum does not have with the member meant and the members it takes', async () => {
    const takes = 'SiteStatusEnum takes: STATUS_PLANNED, STATUS_STAGING, STATUS_ACTIVE, STATUS_DECOMMISSIONING, STATUS_RETIRED, STATUS_RESERVED.';
    expect(await errors(t, '{ site_list(filters: {status: "active"}) { id } }')).toEqual([
      `Enum "SiteStatusEnum" cannot represent non-enum value: "active". Did you mean STATUS_ACTIVE? A member is written bare, without quotes. ${takes}`,
    ]);
    expect(await errors(t, '{ site_list(filters: {status: {in_list: [active]}}) { id } }')).toEqual([
      `Value "active" does not exist in "SiteStatusEnum" enum. Did you mean STATUS_ACTIVE? ${takes}`,
    ]);
    const variable = await graphql(t, 'query($s: SiteStatusEnum) { site_list(filters: {status: $s}) { id } }', { variables: { s: 'active' } });
    expect(variable.status).toBe(400);
    expect(variable.body.errors.map((e: Body) => e.message)).toEqual([`Variable "$s" got invalid value "active"; Expected type SiteStatusEnum. Did you mean STATUS_ACTIVE? ${takes}`]);
    // A long enum lists its first members and counts them.
    expect(await errors(t, '{ interface_list(filters: {type: "1000base-t"}) { id } }')).toEqual([
      expect.stringMatching(/Did you mean TYPE_1000BASE_T\? .* InterfaceTypeEnum takes: TYPE_VIRTUAL, TYPE_BRIDGE, TYPE_LAG, .*, … \(\d{3} in all\)\.$/),
    ]);
  });

  it("takes NetBox 4.4's unprefixed circuit statuses and the prefixed names other enums use, listing only NetBox's", async () => {
    const provider = await created(t, '/api/circuits/providers/', { name: 'Carrier', slug: 'carrier' });
    const type = await created(t, '/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' });
    await created(t, '/api/circuits/circuits/', [
      { cid: 'C-1', provider: provider.id, type: type.id, status: 'active' },
      { cid: 'C-2', provider: provider.id, type: type.id, status: 'planned' },
    ]);
    const cids = async (filter: string, variables?: Record<string, unknown>) =>
      (await data(t, `query${variables ? '($s: CircuitStatusEnum)' : ''} { circuit_list(filters: ${filter}) { cid } }`, { variables })).circuit_list.map((c: Body) => c.cid);
    expect(await cids('{status: ACTIVE}')).toEqual(['C-1']);
    expect(await cids('{status: STATUS_ACTIVE}')).toEqual(['C-1']);
    expect(await cids('{status: {exact: STATUS_PLANNED}}')).toEqual(['C-2']);
    expect(await cids('{status: {in_list: [STATUS_ACTIVE, PLANNED]}}')).toEqual(['C-1', 'C-2']);
    expect(await cids('{status: $s}', { s: 'STATUS_PLANNED' })).toEqual(['C-2']);
    const { __type } = await data(t, '{ __type(name: "CircuitStatusEnum") { enumValues { name } } }');
    expect(__type.enumValues.map((v: Body) => v.name)).toEqual(['PLANNED', 'PROVISIONING', 'ACTIVE', 'OFFLINE', 'DEPROVISIONING', 'DECOMMISSIONED']);
  });
});

describe('pagination', () => {
  it('takes offset and limit (100 by default once given), and start for cursor paging', async () => {
    const list = async (pagination: string) => names((await data(t, `{ interface_list(pagination: ${pagination}) { name } }`)).interface_list);
    expect(await list('{limit: 2}')).toHaveLength(2);
    expect(await list('{offset: 3}')).toHaveLength(1);
    expect(await list('{}')).toHaveLength(4);
    const { interface_list } = await data(t, `{ interface_list(pagination: {start: ${ids.eth2}, limit: 5}) { id } }`);
    expect(interface_list).toEqual([{ id: String(ids.eth2) }, { id: String(ids.eth3) }]);
    expect(await errors(t, '{ interface_list(pagination: {start: 1, offset: 2}) { id } }')).toEqual(['pagination: start (cursor) cannot be combined with offset.']);
    expect(await errors(t, '{ interface_list(pagination: {limit: -1}) { id } }')).toEqual([expect.stringMatching(/^pagination.limit/)]);
  });
});

describe('GRAPHQL_ENABLED', () => {
  it('removes the endpoint when false (404)', async () => {
    const off = await startServer({ settings: { GRAPHQL_ENABLED: false } });
    try {
      const res = await graphql(off, '{ site_list { id } }');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'The GraphQL API is not enabled.' });
    } finally {
      await off.close();
    }
  });
});
