import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookReceiver, expectListBudget, startPatchbay, type Body, type TestPatchbay } from 'patchbay/testing';

const API = '/api/plugins/bgp';
let t: TestPatchbay;
const ids: Record<string, number> = {};

/** Creates through the API and answers the new object's id. */
async function made(path: string, body: Record<string, unknown>): Promise<number> {
  const reply = await t.post(path, body);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.id;
}

beforeAll(async () => {
  // The plugin is this package: by its folder's path here, as `PLUGINS=/path/to/patchbay-bgp` would.
  t = await startPatchbay({ plugins: [fileURLToPath(new URL('..', import.meta.url))], settings: { PLUGINS_CONFIG: { bgp: { local_as: 64512, default_status: 'planned' } } } });
  const site = await made('/api/dcim/sites/', { name: 'Lyon', slug: 'lyon' });
  const maker = await made('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
  const type = await made('/api/dcim/device-types/', { manufacturer: maker, model: 'R1', slug: 'r1' });
  const role = await made('/api/dcim/device-roles/', { name: 'Router', slug: 'router' });
  ids.edge1 = await made('/api/dcim/devices/', { name: 'edge1', site, device_type: type, role });
  ids.edge2 = await made('/api/dcim/devices/', { name: 'edge2', site, device_type: type, role });
  for (const [name, address] of [['local', '192.0.2.1/31'], ['peer1', '192.0.2.0/31'], ['peer2', '198.51.100.1/31']]) ids[name] = await made('/api/ipam/ip-addresses/', { address });
  ids.inbound = await made(`${API}/routing-policies/`, { name: 'inbound', weight: 10 });
  ids.outbound = await made(`${API}/routing-policies/`, { name: 'outbound' });
  ids.blackhole = await made(`${API}/communities/`, { value: '65535:666', description: 'Blackhole' });
});
afterAll(async () => {
  await t?.close();
});

describe('the bgp plugin, a package of its own', () => {
  it('serves sessions with every REST convention: nested relations, many-to-many as objects, choices, display', async () => {
    const session = await t.post(`${API}/sessions/`, {
      name: 'transit 1', device: ids.edge1, local_address: ids.local, remote_address: ids.peer1, remote_as: 4200000000,
      import_policies: [ids.inbound], export_policies: [ids.outbound], communities: [ids.blackhole],
    });
    expect(session.status, session.text).toBe(201);
    expect(session.body).toMatchObject({
      // No status given: the plugin's setting `default_status` chose it.
      display: 'transit 1', status: { value: 'planned', label: 'Planned' }, remote_as: 4200000000,
      device: { id: ids.edge1, name: 'edge1' }, remote_address: { id: ids.peer1, address: '192.0.2.0/31' },
      import_policies: [{ id: ids.inbound, name: 'inbound' }], communities: [{ id: ids.blackhole, display: '65535:666' }],
    });
    ids.transit1 = session.body.id;
    ids.transit2 = await made(`${API}/sessions/`, { name: 'transit 2', status: 'planned', device: ids.edge2, remote_address: ids.peer2, remote_as: 64600, import_policies: [ids.outbound] });
    expect((await t.post(`${API}/sessions/`, { name: 'transit 1', device: ids.edge1, remote_address: ids.peer2, remote_as: 1 })).status).toBe(400);
    expect((await t.post(`${API}/sessions/`, { name: 'x', device: ids.edge1, remote_address: ids.peer2, remote_as: 0 })).body).toHaveProperty('remote_as');
    // Names with numbers sort as people read them; the community displays its value.
    expect((await t.get(`${API}/communities/${ids.blackhole}/`)).body.display).toBe('65535:666');
    const options = await t.request('OPTIONS', `${API}/sessions/`);
    expect(options.body.actions.POST.status.choices.map((c: Body) => c.value)).toEqual(['planned', 'active', 'offline']);
  });

  it("filters many-to-many fields by the field's name, by id and by name, and by their declared name", async () => {
    const names = async (query: string) => (await t.get(`${API}/sessions/?${query}`)).body.results.map((s: Body) => s.name);
    expect(await names(`import_policies_id=${ids.inbound}`)).toEqual(['transit 1']);
    expect(await names('import_policies=outbound')).toEqual(['transit 2']);
    expect(await names(`export_policies_id=${ids.outbound}`)).toEqual(['transit 1']);
    expect(await names('community=65535:666')).toEqual(['transit 1']);
    expect(await names(`device_id=${ids.edge2}&status=planned`)).toEqual(['transit 2']);
    expect(await names('q=transit&ordering=-name')).toEqual(['transit 2', 'transit 1']);
  });

  it('is in GraphQL under the names its declarations give, down to devices and addresses', async () => {
    const reply = await t.post('/graphql/', {
      query: '{ bgp_session_list(filters: {name: {exact: "transit 1"}}) { name remote_as device { name } remote_address { address } import_policies { name } } }',
    });
    expect(reply.body).toEqual({
      data: { bgp_session_list: [{ name: 'transit 1', remote_as: 4200000000, device: { name: 'edge1' }, remote_address: { address: '192.0.2.0/31' }, import_policies: [{ name: 'inbound' }] }] },
    });
    expect((await t.post('/graphql/', { query: `{ bgp_community(id: "${ids.blackhole}") { value } }` })).body.data).toEqual({ bgp_community: { value: '65535:666' } });
    // A choice field is an enum of its members; relations filter by the target's filter input and by id.
    const planned = await t.post('/graphql/', { query: `{ bgp_session_list(filters: {status: STATUS_PLANNED, device: {name: {exact: "edge2"}}}) { name } }` });
    expect(planned.body).toEqual({ data: { bgp_session_list: [{ name: 'transit 2' }] } });
    const byId = await t.post('/graphql/', { query: `{ bgp_session_list(filters: {device_id: {exact: "${ids.edge1}"}, status: {in_list: [STATUS_ACTIVE, STATUS_PLANNED]}}) { name } }` });
    expect(byId.body).toEqual({ data: { bgp_session_list: [{ name: 'transit 1' }] } });
  });

  it('is in the OpenAPI document: its models, their filters and its own route', async () => {
    const schema = (await t.get('/api/schema/?format=json')).body;
    expect(Object.keys(schema.paths)).toEqual(expect.arrayContaining([`${API}/sessions/`, `${API}/sessions/{id}/`, `${API}/communities/`, `${API}/summary/`]));
    const parameters = schema.paths[`${API}/sessions/`].get.parameters.map((p: Body) => p.name);
    expect(parameters).toEqual(expect.arrayContaining(['import_policies_id', 'device_id', 'community']));
  });

  it('logs each change, and an event rule sends a webhook when a session is created', async () => {
    const changes = await t.get(`/api/core/object-changes/?changed_object_type=bgp.session&changed_object_id=${ids.transit1}`);
    expect(changes.body.results.map((c: Body) => c.action.value)).toEqual(['create']);
    const receiver = new WebhookReceiver();
    await receiver.start();
    try {
      const webhook = await made('/api/extras/webhooks/', { name: 'bgp', payload_url: `${receiver.url}/bgp` });
      await made('/api/extras/event-rules/', {
        name: 'new sessions', object_types: ['bgp.session'], event_types: ['object_created'], action_type: 'webhook', action_object_type: 'extras.webhook', action_object_id: webhook,
      });
      ids.peering = await made(`${API}/sessions/`, { name: 'peering', device: ids.edge1, remote_address: ids.peer2, remote_as: 64700 });
      const [sent] = await receiver.received(1);
      expect(JSON.parse(sent.text)).toMatchObject({ event: 'created', model: 'session', data: { id: ids.peering, name: 'peering' } });
    } finally {
      await receiver.stop();
    }
  });

  it("applies constrained permissions, written with Django's attnames", async () => {
    const user = await t.userWith('noc', { actions: ['view', 'change'], objectTypes: ['bgp.session'], constraints: { device_id: ids.edge2 } });
    const seen = await t.get(`${API}/sessions/`, { token: user.token });
    expect(seen.body.results.map((s: Body) => s.name)).toEqual(['transit 2']);
    expect((await t.patch(`${API}/sessions/${ids.transit2}/`, { status: 'active' }, { token: user.token })).status).toBe(200);
    expect((await t.patch(`${API}/sessions/${ids.transit1}/`, { status: 'offline' }, { token: user.token })).status).toBe(404);
    // Its own route answers as the user may see: one session, and the configured AS.
    expect((await t.get(`${API}/summary/`, { token: user.token })).body).toEqual({ local_as: 64512, sessions: 1, by_status: { active: 1 } });
  });

  it('serves its own route with its validated config, and reads a page of each list in a fixed number of statements', async () => {
    expect((await t.get(`${API}/summary/`)).body).toEqual({ local_as: 64512, sessions: 3, by_status: { planned: 2, active: 1 } });
    // Sessions with every relation set, first in the order, so that a page of 1 has what a page of 1000 has.
    for (const name of ['a 1', 'a 2', 'a 3']) {
      await made(`${API}/sessions/`, {
        name, device: ids.edge1, local_address: ids.local, remote_address: ids.peer1, remote_as: 64800,
        import_policies: [ids.inbound], export_policies: [ids.outbound], communities: [ids.blackhole],
      });
    }
    await expectListBudget(t, `${API}/sessions/`, 12);
    await expectListBudget(t, `${API}/sessions/`, 2, { brief: true });
    await expectListBudget(t, `${API}/routing-policies/`, 3);
    await expectListBudget(t, `${API}/communities/`, 2);
  });
});
