import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const CONTEXTS = '/api/extras/config-contexts/';

/** Creates an object and returns its id, failing loudly when the server refuses. */
async function make(path: string, body: Record<string, unknown>): Promise<number> {
  const res = await t.post(path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.body.id as number;
}

const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startServer();
  ids.europe = await make('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  ids.france = await make('/api/dcim/regions/', { name: 'France', slug: 'france', parent: ids.europe });
  ids.asia = await make('/api/dcim/regions/', { name: 'Asia', slug: 'asia' });
  ids.group = await make('/api/dcim/site-groups/', { name: 'Edge sites', slug: 'edge-sites' });
  ids.paris = await make('/api/dcim/sites/', { name: 'Paris', slug: 'paris', region: ids.france, group: ids.group });
  ids.tokyo = await make('/api/dcim/sites/', { name: 'Tokyo', slug: 'tokyo', region: ids.asia });
  ids.floor = await make('/api/dcim/locations/', { name: 'Floor 1', slug: 'floor-1', site: ids.paris });
  ids.network = await make('/api/dcim/device-roles/', { name: 'Network', slug: 'network' });
  ids.leaf = await make('/api/dcim/device-roles/', { name: 'Leaf', slug: 'leaf', parent: ids.network });
  ids.vendor = await make('/api/dcim/manufacturers/', { name: 'Arista', slug: 'arista' });
  ids.eos = await make('/api/dcim/platforms/', { name: 'EOS', slug: 'eos' });
  ids.type = await make('/api/dcim/device-types/', { manufacturer: ids.vendor, model: '7050', slug: '7050' });
  ids.tenantGroup = await make('/api/tenancy/tenant-groups/', { name: 'Customers', slug: 'customers' });
  ids.tenant = await make('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme', group: ids.tenantGroup });
  ids.edge = await make('/api/extras/tags/', { name: 'Edge', slug: 'edge' });
  ids.clusterType = await make('/api/virtualization/cluster-types/', { name: 'KVM', slug: 'kvm' });
  ids.cluster = await make('/api/virtualization/clusters/', { name: 'Paris KVM', type: ids.clusterType, scope_type: 'dcim.site', scope_id: ids.paris });
  ids.device = await make('/api/dcim/devices/', {
    name: 'leaf1', device_type: ids.type, role: ids.leaf, site: ids.paris, location: ids.floor, platform: ids.eos, tenant: ids.tenant, tags: [ids.edge],
  });
  ids.tokyoDevice = await make('/api/dcim/devices/', { name: 'leaf2', device_type: ids.type, role: ids.leaf, site: ids.tokyo });
  ids.vm = await make('/api/virtualization/virtual-machines/', { name: 'vm1', cluster: ids.cluster, role: ids.leaf, tenant: ids.tenant });
});
afterAll(async () => {
  await t?.close();
});

const contextOf = async (path: string) => (await t.get(path)).body.config_context;

describe('config contexts', () => {
  it('merge the contexts that apply by weight then name, trees matching their descendants, local data last', async () => {
    await make(CONTEXTS, { name: 'global', weight: 100, data: { ntp: ['10.0.0.1', '10.0.0.2'], syslog: { host: '10.0.0.5', port: 514 }, banner: 'hello', nested: { a: 1 } } });
    await make(CONTEXTS, { name: 'europe', weight: 200, regions: [ids.europe], data: { syslog: { host: '10.1.0.5' }, ntp: ['10.1.0.1'] } });
    await make(CONTEXTS, { name: 'network roles', weight: 300, roles: [ids.network], data: { nested: {}, role: 'network' } });
    await make(CONTEXTS, { name: 'tagged', weight: 150, tags: ['edge'], data: { tagged: true } });
    await make(CONTEXTS, { name: 'tokyo only', weight: 900, sites: [ids.tokyo], data: { banner: 'tokyo' } });
    await make(CONTEXTS, { name: 'inactive', weight: 999, is_active: false, data: { banner: 'never' } });
    await make(CONTEXTS, { name: 'b-tie', weight: 500, data: { tie: 'b' } });
    await make(CONTEXTS, { name: 'a-tie', weight: 500, data: { tie: 'a' } });
    await make(CONTEXTS, { name: 'floor', weight: 600, locations: [ids.floor], device_types: [ids.type], data: { floor: 1 } });
    await make(CONTEXTS, { name: 'acme', weight: 700, tenant_groups: [ids.tenantGroup], platforms: [ids.eos], site_groups: [ids.group], data: { customer: 'acme' } });
    await make(CONTEXTS, { name: 'kvm', weight: 800, cluster_types: [ids.clusterType], clusters: [ids.cluster], data: { hypervisor: 'kvm' } });

    const device = `/api/dcim/devices/${ids.device}/`;
    expect(await contextOf(device)).toEqual({
      ntp: ['10.1.0.1'],
      syslog: { host: '10.1.0.5', port: 514 },
      banner: 'hello',
      nested: {},
      tagged: true,
      role: 'network',
      tie: 'b',
      floor: 1,
      customer: 'acme',
    });
    expect(await contextOf(`/api/dcim/devices/${ids.tokyoDevice}/`)).toEqual({
      ntp: ['10.0.0.1', '10.0.0.2'], syslog: { host: '10.0.0.5', port: 514 }, banner: 'tokyo', nested: {}, role: 'network', tie: 'b',
    });
    // Virtual machines (at their cluster's site) match no context assigned to locations or device types.
    expect(await contextOf(`/api/virtualization/virtual-machines/${ids.vm}/`)).toEqual({
      ntp: ['10.1.0.1'], syslog: { host: '10.1.0.5', port: 514 }, banner: 'hello', nested: {}, role: 'network', tie: 'b', hypervisor: 'kvm',
    });

    const patched = await t.request('PATCH', device, { body: { local_context_data: { syslog: { port: 1514 }, banner: 'local' } } });
    expect(patched.status).toBe(200);
    expect(patched.body.config_context).toMatchObject({ syslog: { host: '10.1.0.5', port: 1514 }, banner: 'local' });
    expect(patched.body.local_context_data).toEqual({ syslog: { port: 1514 }, banner: 'local' });
  });

  it('are on lists, skipped by exclude, omit and brief', async () => {
    const list = await t.get(`/api/dcim/devices/?id=${ids.device}`);
    expect(list.body.results[0].config_context.customer).toBe('acme');
    for (const query of ['exclude=config_context', 'omit=config_context', 'brief=1']) {
      const res = await t.get(`/api/dcim/devices/?id=${ids.device}&${query}`);
      expect(res.status).toBe(200);
      expect(res.body.results[0]).not.toHaveProperty('config_context');
    }
    expect((await t.get(`/api/dcim/devices/${ids.device}/?exclude=config_context`)).body).not.toHaveProperty('config_context');
  });

  it('are read with the object it is read alone, by a plan PostgreSQL prepares once, not planned anew for each object', async () => {
    /** How many times PostgreSQL ran a statement by a generic plan, of eight runs prepared. */
    const genericPlans = async (read: { sql: string; bindings: readonly unknown[] }) => {
      const args = read.bindings.map((b) => (typeof b === 'number' ? String(b) : `'${String(b)}'`)).join(', ');
      return t.server.db.knex.transaction(async (trx) => {
        await trx.raw(`prepare contexts as ${read.sql}`);
        // PostgreSQL weighs a generic plan against the first five it makes for the values given.
        for (let i = 0; i < 8; i++) await trx.raw(`execute contexts(${args})`);
        const { rows } = (await trx.raw(`select generic_plans::int as generic from pg_prepared_statements where name = 'contexts'`)) as { rows: { generic: number }[] };
        await trx.raw('deallocate contexts');
        return rows[0].generic;
      });
    };
    // A detail: the device and its contexts in one statement.
    const detail = await t.statements(() => t.get(`/api/dcim/devices/${ids.device}/`));
    const read = detail.filter((s) => s.sql.includes('from "dcim_device"'));
    expect(read).toHaveLength(1);
    expect(read[0].sql).toContain('config_contexts');
    expect(detail.some((s) => s.sql.startsWith('with recursive'))).toBe(false);
    expect(await genericPlans(read[0])).toBeGreaterThan(0);
    // A detail that does not show them does not read them.
    for (const query of ['exclude=config_context', 'brief=1']) {
      const skipped = await t.statements(() => t.get(`/api/dcim/devices/${ids.device}/?${query}`));
      expect(skipped.some((s) => s.sql.includes('config_contexts') || s.sql.startsWith('with recursive')), query).toBe(false);
    }
    // A page: its devices' contexts in a statement of their own.
    const page = await t.statements(() => t.get(`/api/dcim/devices/?id=${ids.device}`));
    expect(await genericPlans(page.find((s) => s.sql.startsWith('with recursive'))!)).toBeGreaterThan(0);
  });

  it('refuse data and local context data that are not JSON objects', async () => {
    const message = 'JSON data must be in object form. Example: {"foo": 123}';
    for (const value of [[1], 'text', 3]) {
      const res = await t.request('PATCH', `/api/dcim/devices/${ids.device}/`, { body: { local_context_data: value } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ local_context_data: [message] });
    }
    expect((await t.request('PATCH', `/api/virtualization/virtual-machines/${ids.vm}/`, { body: { local_context_data: null } })).status).toBe(200);
    expect((await t.post(CONTEXTS, { name: 'list', data: [1, 2] })).body).toEqual({ data: [message] });
    expect((await t.post(CONTEXTS, { name: 'nodata' })).body).toEqual({ data: ['This field is required.'] });
  });

  it('read their assignments nested and their tags as slugs, and filter by them', async () => {
    const { body } = await t.get(`${CONTEXTS}?name=europe`);
    expect(body.results[0]).toMatchObject({ name: 'europe', weight: 200, is_active: true, profile: null, regions: [{ id: ids.europe, slug: 'europe' }], tags: [] });
    expect((await t.get(`${CONTEXTS}?name=tagged`)).body.results[0].tags).toEqual(['edge']);
    expect((await t.post(CONTEXTS, { name: 'bad tag', tags: ['nope'], data: {} })).body).toEqual({ tags: ['Object with slug=nope does not exist.'] });
    const names = async (query: string) => (await t.get(`${CONTEXTS}?${query}`)).body.results.map((c: { name: string }) => c.name);
    expect(await names(`region_id=${ids.europe}`)).toEqual(['europe']);
    expect(await names('tag=edge')).toEqual(['tagged']);
    expect(await names(`device_role_id=${ids.network}`)).toEqual(['network roles']);
    expect(await names('is_active=false')).toEqual(['inactive']);
    expect(await names('q=tokyo')).toEqual(['tokyo only']);
  });

  it('check their data against their profile schema', async () => {
    const schema = { properties: { ntp: { type: 'array', items: { type: 'string' } } }, required: ['ntp'] };
    const profile = await make('/api/extras/config-context-profiles/', { name: 'NTP', schema });
    expect((await t.post('/api/extras/config-context-profiles/', { name: 'bad', schema: { type: 'object' } })).body).toEqual({ schema: ['JSON schema must define properties'] });
    const refused = await t.post(CONTEXTS, { name: 'profiled', profile, data: { ntp: 'x' } });
    expect(refused.status).toBe(400);
    expect(refused.body.non_field_errors[0]).toMatch(/^Data does not conform to profile schema: ntp /);
    expect((await t.post(CONTEXTS, { name: 'profiled', profile, data: { ntp: ['10.0.0.1'] } })).status).toBe(201);
  });
});
