import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/dcim';
let site: Body;
let role: Body;
let type: Body;

const made = async (path: string, body: object) => {
  const res = await t.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Body;
};
const get = async (path: string) => (await t.get(path)).body as Body;
const ids = async (path: string) => ((await t.get(path)).body.results as Body[]).map((r) => r.id);
const ref = (objectType: string, object: Body) => ({ object_type: objectType, object_id: object.id });
const cable = (a: [string, Body][], b: [string, Body][], extra: object = {}) =>
  made(`${API}/cables/`, { a_terminations: a.map(([k, o]) => ref(k, o)), b_terminations: b.map(([k, o]) => ref(k, o)), ...extra });
const device = (name: string, at: Body = site) => made(`${API}/devices/`, { name, device_type: type.id, role: role.id, site: at.id });
const iface = (dev: Body, name: string, kind = '1000base-t') => made(`${API}/interfaces/`, { device: dev.id, name, type: kind });
/** A patch panel: `n` rear ports, each with one front port. */
async function panel(name: string, n = 1, at: Body = site) {
  const dev = await device(name, at);
  const rears: Body[] = [];
  const fronts: Body[] = [];
  for (let i = 1; i <= n; i++) {
    const rear = await made(`${API}/rear-ports/`, { device: dev.id, name: `R${i}`, type: 'lc' });
    rears.push(rear);
    fronts.push(await made(`${API}/front-ports/`, { device: dev.id, name: `F${i}`, type: 'lc', rear_port: rear.id }));
  }
  return { dev, rears, fronts };
}
/** `[near names, cable id, far names]` per trace segment. */
const traced = async (path: string) =>
  ((await get(path)) as Body[][]).map(([near, c, far]) => [(near as Body[]).map((o) => o.display), c?.id ?? null, (far as Body[]).map((o) => o.display)]);

beforeAll(async () => {
  t = await startServer();
  site = await made(`${API}/sites/`, { name: 'Paris', slug: 'paris' });
  role = await made(`${API}/device-roles/`, { name: 'Core', slug: 'core' });
  const vendor = await made(`${API}/manufacturers/`, { name: 'Acme', slug: 'acme' });
  type = await made(`${API}/device-types/`, { manufacturer: vendor.id, model: 'Box', slug: 'box' });
});
afterAll(async () => {
  await t?.close();
});

describe('cables between two interfaces', () => {
  it('attach both ends, show link peers and connected endpoints, and trace', async () => {
    const sw1 = await device('sw1');
    const sw2 = await device('sw2');
    const a = await iface(sw1, 'eth0');
    const b = await iface(sw2, 'eth0');
    const c = await cable([['dcim.interface', a]], [['dcim.interface', b]], { type: 'cat6', label: 'X1', length: 2.5, length_unit: 'm' });
    expect(c).toMatchObject({
      display: 'X1', type: { value: 'cat6', label: 'CAT6' }, status: { value: 'connected', label: 'Connected' }, length: 2.5, length_unit: { value: 'm', label: 'Meters' },
      a_terminations: [{ object_type: 'dcim.interface', object_id: a.id, object: { id: a.id, name: 'eth0', device: { id: sw1.id }, cable: { id: c.id }, _occupied: true } }],
      b_terminations: [{ object_type: 'dcim.interface', object_id: b.id, object: { id: b.id } }],
    });
    // The ends the write stored render from its rows, as they read back.
    expect(c).toEqual(await get(`${API}/cables/${c.id}/`));
    const read = await get(`${API}/interfaces/${a.id}/`);
    expect(read).toMatchObject({
      cable: { id: c.id, display: 'X1', label: 'X1' }, cable_end: 'A', _occupied: true, mark_connected: false,
      link_peers_type: 'dcim.interface', link_peers: [{ id: b.id, name: 'eth0', device: { id: sw2.id, name: 'sw2' } }],
      connected_endpoints_type: 'dcim.interface', connected_endpoints: [{ id: b.id }], connected_endpoints_reachable: true,
    });
    expect((await get(`${API}/interfaces/${b.id}/`)).cable_end).toBe('B');
    expect(await traced(`${API}/interfaces/${a.id}/trace/`)).toEqual([[['eth0'], c.id, ['eth0']]]);
    const [[[near], tracedCable]] = (await get(`${API}/interfaces/${a.id}/trace/`)) as Body[][][];
    // Its cable renders from the cables the trace lists, as a read renders it.
    expect(near).toEqual(await get(`${API}/interfaces/${a.id}/?brief=1`));
    expect(tracedCable).toEqual({
      id: c.id, url: expect.stringContaining(`/api/dcim/cables/${c.id}/`), display_url: expect.any(String), type: 'cat6', status: 'connected', label: 'X1',
      color: '', length: 2.5, length_unit: 'm', description: '',
    });

    // Planned: the path is there but not reachable.
    await t.request('PATCH', `${API}/cables/${c.id}/`, { body: { status: 'planned' } });
    expect((await get(`${API}/interfaces/${a.id}/`)).connected_endpoints_reachable).toBe(false);
    await t.request('PATCH', `${API}/cables/${c.id}/`, { body: { status: 'connected' } });

    // Moving the B end to another interface frees the first one.
    const b2 = await iface(sw2, 'eth1');
    const moved = await t.request('PATCH', `${API}/cables/${c.id}/`, { body: { b_terminations: [ref('dcim.interface', b2)] } });
    expect(moved.body).toEqual(await get(`${API}/cables/${c.id}/`));
    expect(await get(`${API}/interfaces/${b.id}/`)).toMatchObject({ cable: null, cable_end: null, link_peers: [], link_peers_type: null, connected_endpoints: null, _occupied: false });
    expect((await get(`${API}/interfaces/${a.id}/`)).connected_endpoints).toMatchObject([{ id: b2.id, name: 'eth1' }]);
    expect((await get(`${API}/interfaces/${b2.id}/`)).connected_endpoints).toMatchObject([{ id: a.id }]);

    // Several objects at an end: a write answers them as a read does (the written rows are not read back), kept ones
    // first, also when objects change ends: swapped, or moved from the end a write leaves alone.
    const [a2, b3] = [await iface(sw1, 'eth2'), await iface(sw2, 'eth3')];
    const ends = (cab: Body) => [cab.a_terminations, cab.b_terminations].map((e) => (e as Body[]).map((x) => x.object_id));
    const grown = await t.request('PATCH', `${API}/cables/${c.id}/`, { body: { a_terminations: [ref('dcim.interface', a2), ref('dcim.interface', a)] } });
    expect(ends(grown.body)).toEqual([[a.id, a2.id], [b2.id]]);
    expect(grown.body).toEqual(await get(`${API}/cables/${c.id}/`));
    const swapped = await t.request('PATCH', `${API}/cables/${c.id}/`, { body: { a_terminations: [ref('dcim.interface', b2)], b_terminations: [ref('dcim.interface', a), ref('dcim.interface', a2)] } });
    expect(ends(swapped.body)).toEqual([[b2.id], [a.id, a2.id]]);
    expect(swapped.body).toEqual(await get(`${API}/cables/${c.id}/`));
    const movedOver = await t.request('PATCH', `${API}/cables/${c.id}/`, { body: { b_terminations: [ref('dcim.interface', b3), ref('dcim.interface', a), ref('dcim.interface', b2)] } });
    expect(movedOver.status).toBe(200);
    expect(movedOver.body).toEqual(await get(`${API}/cables/${c.id}/`));
    expect(await get(`${API}/interfaces/${a2.id}/`)).toMatchObject({ cable: null, cable_end: null });
    await t.request('PATCH', `${API}/cables/${c.id}/`, { body: { a_terminations: [ref('dcim.interface', a)], b_terminations: [ref('dcim.interface', b2)] } });

    // Deleting the cable clears both ends and their paths.
    expect((await t.request('DELETE', `${API}/cables/${c.id}/`)).status).toBe(204);
    for (const end of [a, b2]) {
      expect(await get(`${API}/interfaces/${end.id}/`)).toMatchObject({ cable: null, cable_end: null, connected_endpoints: null, connected_endpoints_reachable: null, _occupied: false });
    }
    expect(await get(`${API}/interfaces/${a.id}/trace/`)).toEqual([]);
  });
});

describe('paths through patch panels', () => {
  it('trace on through an interface bridged to another, as NetBox does, and only that way', async () => {
    const [host, hv, peer] = [await device('bridge-host'), await device('bridge-hv'), await device('bridge-peer')];
    const nic = await iface(host, 'nic0');
    const [uplink, bridged] = [await iface(hv, 'uplink'), await iface(hv, 'br-port')];
    const far = await iface(peer, 'eth9');
    const first = await cable([['dcim.interface', nic]], [['dcim.interface', uplink]]);
    const second = await cable([['dcim.interface', bridged]], [['dcim.interface', far]]);
    expect(await traced(`${API}/interfaces/${nic.id}/trace/`)).toEqual([[['nic0'], first.id, ['uplink']]]);
    expect((await t.request('PATCH', `${API}/interfaces/${uplink.id}/`, { body: { bridge: bridged.id } })).status).toBe(200);
    expect(await traced(`${API}/interfaces/${nic.id}/trace/`)).toEqual([[['nic0'], first.id, ['uplink']], [['br-port'], second.id, ['eth9']]]);
    // The bridged interface is not bridged back: from the other side the trace ends there.
    expect(await traced(`${API}/interfaces/${far.id}/trace/`)).toEqual([[['eth9'], second.id, ['br-port']]]);
  });

  it('trace interface → front → rear → rear → front → interface, and follow a middle cable going and coming back', async () => {
    const left = await device('left');
    const right = await device('right');
    const p1 = await panel('pp1');
    const p2 = await panel('pp2');
    const a = await iface(left, 'xe-0');
    const b = await iface(right, 'xe-0');
    const c1 = await cable([['dcim.interface', a]], [['dcim.frontport', p1.fronts[0]]]);
    const trunk = await cable([['dcim.rearport', p1.rears[0]]], [['dcim.rearport', p2.rears[0]]]);
    const c3 = await cable([['dcim.frontport', p2.fronts[0]]], [['dcim.interface', b]]);
    expect((await get(`${API}/interfaces/${a.id}/`)).connected_endpoints).toMatchObject([{ id: b.id }]);
    expect((await get(`${API}/interfaces/${b.id}/`)).connected_endpoints).toMatchObject([{ id: a.id }]);
    expect(await traced(`${API}/interfaces/${a.id}/trace/`)).toEqual([
      [['xe-0'], c1.id, ['F1']],
      [['R1'], trunk.id, ['R1']],
      [['F1'], c3.id, ['xe-0']],
    ]);
    // The token, the path, the ports of every model on it (one UNION ALL) and its cables, and the devices the ports
    // nest (their cables render from the cables listed).
    expect(await t.countQueries(() => t.get(`${API}/interfaces/${a.id}/trace/`))).toBe(5);
    const paths = (await get(`${API}/rear-ports/${p1.rears[0].id}/paths/`)) as Body[];
    expect(paths).toHaveLength(2);
    expect(paths[0]).toMatchObject({ is_active: true, is_complete: true, is_split: false });
    expect((paths[0].path as Body[][]).map((hop) => hop.map((o) => o.display))).toEqual([['xe-0'], ['#' + c1.id], ['F1'], ['R1'], ['#' + trunk.id], ['R1'], ['F1'], ['#' + c3.id], ['xe-0']]);
    expect(await get(`${API}/front-ports/${p2.fronts[0].id}/`)).toMatchObject({ cable: { id: c3.id }, link_peers_type: 'dcim.interface', link_peers: [{ id: b.id }] });

    // Without the trunk, each side ends at its panel's rear port.
    expect((await t.request('DELETE', `${API}/cables/${trunk.id}/`)).status).toBe(204);
    expect(await get(`${API}/interfaces/${a.id}/`)).toMatchObject({ connected_endpoints: null, connected_endpoints_reachable: false });
    expect(await traced(`${API}/interfaces/${a.id}/trace/`)).toEqual([[['xe-0'], c1.id, ['F1']], [['R1'], null, []]]);
    expect(await traced(`${API}/interfaces/${b.id}/trace/`)).toEqual([[['xe-0'], c3.id, ['F1']], [['R1'], null, []]]);

    const again = await cable([['dcim.rearport', p2.rears[0]]], [['dcim.rearport', p1.rears[0]]]);
    expect((await get(`${API}/interfaces/${a.id}/`)).connected_endpoints).toMatchObject([{ id: b.id }]);
    expect((await traced(`${API}/interfaces/${b.id}/trace/`))[1]).toEqual([['R1'], again.id, ['R1']]);
  });
});

describe('a trace', () => {
  it('answers 404 for an endpoint the reader may not view or that does not exist, 403 without the permission', async () => {
    const [x, y] = [await device('trace-x'), await device('trace-y')];
    const [ex, ey, free] = [await iface(x, 'eth0'), await iface(y, 'eth0'), await iface(y, 'eth1')];
    const c = await cable([['dcim.interface', ex]], [['dcim.interface', ey]]);
    expect(await traced(`${API}/interfaces/${ex.id}/trace/`)).toEqual([[['eth0'], c.id, ['eth0']]]);
    expect(await get(`${API}/interfaces/${free.id}/trace/`)).toEqual([]);
    for (const id of ['999999', 'abc', '0']) expect((await t.get(`${API}/interfaces/${id}/trace/`)).status).toBe(404);

    const user = await t.createUser('tracer');
    const grant = async (constraints: unknown) => {
      await t.server.db.knex('users_objectpermission').delete();
      for (const [name, types, only] of [['interfaces', ['dcim.interface'], constraints], ['cables', ['dcim.cable'], null]] as const) {
        const res = await t.post('/api/users/permissions/', { name, object_types: types, actions: ['view'], constraints: only, users: [user.id] });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
    };
    const as = (path: string) => t.get(path, { token: user.token });
    expect((await as(`${API}/interfaces/${ex.id}/trace/`)).status).toBe(403);
    await grant({ device: y.id });
    expect((await as(`${API}/interfaces/${ex.id}/trace/`)).status).toBe(404);
    expect((await as(`${API}/interfaces/${free.id}/trace/`)).body).toEqual([]);
    // From the endpoint the reader may view, without the far end it may not.
    const seen = (await as(`${API}/interfaces/${ey.id}/trace/`)).body as Body[][];
    expect(seen.map(([near, cab, far]) => [(near as Body[]).map((o) => o.id), (cab as Body | null)?.id, (far as Body[]).map((o) => o.id)])).toEqual([[[ey.id], c.id, []]]);
    await t.server.db.knex('users_objectpermission').delete();
  });

  it('through patch panels shows only the ports of each model the reader may view (one statement reads them all)', async () => {
    const [left, right] = [await device('perm-left'), await device('perm-right')];
    const [p1, p2] = [await panel('perm-pp1'), await panel('perm-pp2')];
    const [a, b] = [await iface(left, 'xe-0'), await iface(right, 'xe-0')];
    const c1 = await cable([['dcim.interface', a]], [['dcim.frontport', p1.fronts[0]]]);
    const trunk = await cable([['dcim.rearport', p1.rears[0]]], [['dcim.rearport', p2.rears[0]]]);
    const c3 = await cable([['dcim.frontport', p2.fronts[0]]], [['dcim.interface', b]]);
    const user = await t.createUser('panel-tracer');
    const grants: [string, unknown][] = [['dcim.interface', { device: left.id }], ['dcim.frontport', { device: p2.dev.id }], ['dcim.rearport', null], ['dcim.cable', null]];
    for (const [type, constraints] of grants) {
      const res = await t.post('/api/users/permissions/', { name: `panel-${type}`, object_types: [type], actions: ['view'], constraints, users: [user.id] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const seen = (await t.get(`${API}/interfaces/${a.id}/trace/`, { token: user.token })).body as Body[][];
    expect(seen.map(([near, cab, far]) => [(near as Body[]).map((o) => o.id), (cab as Body | null)?.id, (far as Body[]).map((o) => o.id)])).toEqual([
      [[a.id], c1.id, []],
      [[p1.rears[0].id], trunk.id, [p2.rears[0].id]],
      [[p2.fronts[0].id], c3.id, []],
    ]);
    await t.server.db.knex('users_objectpermission').delete();
  });
});

describe('bad cables', () => {
  it('are 400s naming the field, with nothing written', async () => {
    const dev = await device('bad1');
    const [e0, e1, e2] = [await iface(dev, 'e0'), await iface(dev, 'e1'), await iface(dev, 'e2')];
    const vlan = await iface(dev, 'vlan10', 'virtual');
    const wifi = await iface(dev, 'wlan0', 'ieee802.11ac');
    const psu = await made(`${API}/power-ports/`, { device: dev.id, name: 'PSU1' });
    const console = await made(`${API}/console-ports/`, { device: dev.id, name: 'con' });
    const taken = await cable([['dcim.interface', e0]], [['dcim.interface', e1]]);
    const before = (await get(`${API}/cables/`)).count;
    const post = (body: object) => t.post(`${API}/cables/`, body);
    const refs = (...pairs: [string, Body][]) => pairs.map(([k, o]) => ref(k, o));

    expect((await post({ a_terminations: refs(['dcim.interface', e2], ['dcim.powerport', psu]), b_terminations: refs(['dcim.interface', e1]) })).body).toEqual({
      a_terminations: ['Cannot connect different termination types to same end of cable.'],
    });
    expect((await post({ a_terminations: refs(['dcim.interface', e2]), b_terminations: refs(['dcim.interface', e0]) })).body).toEqual({
      b_terminations: [`Duplicate termination found for dcim.interface ${e0.id}: cable ${taken.id}`],
    });
    expect((await post({ a_terminations: refs(['dcim.interface', e2]), b_terminations: [{ object_type: 'dcim.interface', object_id: 999999 }] })).body).toEqual({
      b_terminations: ['Related object not found using the provided numeric ID: 999999'],
    });
    expect((await post({ a_terminations: refs(['dcim.interface', e2]), b_terminations: refs(['dcim.interface', e2]) })).body).toEqual({
      b_terminations: ['A and B terminations cannot connect to the same object.'],
    });
    expect((await post({ a_terminations: refs(['dcim.interface', e2]), b_terminations: refs(['dcim.interface', vlan]) })).body).toEqual({
      b_terminations: ['Cables cannot be terminated to Virtual interfaces'],
    });
    expect((await post({ a_terminations: refs(['dcim.interface', wifi]), b_terminations: refs(['dcim.interface', e2]) })).body).toEqual({
      a_terminations: ['Cables cannot be terminated to IEEE 802.11ac (Wi-Fi 5) interfaces'],
    });
    expect((await post({ a_terminations: refs(['dcim.interface', e2]), b_terminations: refs(['dcim.powerport', psu]) })).body).toEqual({
      b_terminations: ['Incompatible termination types: dcim.interface and dcim.powerport'],
    });
    expect((await post({ a_terminations: refs(['dcim.consoleport', console]) })).body).toEqual({ b_terminations: ['Must define A and B terminations when creating a new cable.'] });
    expect((await post({ a_terminations: [{ object_type: 'dcim.device', object_id: dev.id }], b_terminations: refs(['dcim.interface', e2]) })).status).toBe(400);
    expect((await post({ a_terminations: 'e2', b_terminations: refs(['dcim.interface', e2]) })).body.a_terminations).toEqual(['Expected a list of items but got type "str".']);
    expect((await post({ a_terminations: [{ object_type: 'dcim.interface', object_id: 'x' }], b_terminations: refs(['dcim.interface', e2]) })).status).toBe(400);
    expect((await post({ a_terminations: refs(['dcim.interface', e2]), b_terminations: refs(['dcim.interface', e1]), length: 3 })).body).toEqual({
      length_unit: ['You must specify a unit when setting a cable length'],
    });
    // One object on two cables of one bulk request.
    const bulk = await t.post(`${API}/cables/`, [
      { a_terminations: refs(['dcim.interface', e2]), b_terminations: refs(['dcim.interface', wifi]) },
      { a_terminations: refs(['dcim.consoleport', console]), b_terminations: refs(['dcim.interface', e2]) },
    ]);
    expect(bulk.status).toBe(400);
    expect((await get(`${API}/cables/`)).count).toBe(before);
    expect((await get(`${API}/interfaces/${e2.id}/`))._occupied).toBe(false);

    // A cabled interface cannot be marked connected, nor become virtual.
    expect((await t.request('PATCH', `${API}/interfaces/${e0.id}/`, { body: { mark_connected: true } })).body).toEqual({ mark_connected: ['Cannot mark as connected with a cable attached.'] });
    expect((await t.request('PATCH', `${API}/interfaces/${e0.id}/`, { body: { type: 'virtual' } })).status).toBe(400);
    expect((await t.request('PATCH', `${API}/interfaces/${e2.id}/`, { body: { mark_connected: true } })).body._occupied).toBe(true);
  });
});

describe('power and console cabling', () => {
  it('connects feeds to power ports and outlets to power ports, traced end to end', async () => {
    const pdu = await device('pdu1');
    const server = await device('srv1');
    const panelRow = await made(`${API}/power-panels/`, { site: site.id, name: 'Panel A' });
    const feed = await made(`${API}/power-feeds/`, { power_panel: panelRow.id, name: 'Feed A' });
    const inlet = await made(`${API}/power-ports/`, { device: pdu.id, name: 'Inlet' });
    const outlet = await made(`${API}/power-outlets/`, { device: pdu.id, name: 'Out1', power_port: inlet.id });
    const psu = await made(`${API}/power-ports/`, { device: server.id, name: 'PSU1' });
    const feedCable = await cable([['dcim.powerfeed', feed]], [['dcim.powerport', inlet]], { type: 'power' });
    const psuCable = await cable([['dcim.poweroutlet', outlet]], [['dcim.powerport', psu]]);
    expect(await get(`${API}/power-feeds/${feed.id}/`)).toMatchObject({
      cable: { id: feedCable.id }, cable_end: 'A', _occupied: true, link_peers_type: 'dcim.powerport', connected_endpoints_type: 'dcim.powerport',
      connected_endpoints: [{ id: inlet.id, name: 'Inlet' }], connected_endpoints_reachable: true,
    });
    expect(await traced(`${API}/power-ports/${psu.id}/trace/`)).toEqual([[['PSU1'], psuCable.id, ['Out1']]]);
    expect(await traced(`${API}/power-feeds/${feed.id}/trace/`)).toEqual([[['Feed A'], feedCable.id, ['Inlet']]]);
    expect(await traced(`${API}/power-outlets/${outlet.id}/trace/`)).toEqual([[['Out1'], psuCable.id, ['PSU1']]]);
    expect(await ids(`${API}/power-feeds/?cabled=true&connected=true`)).toEqual([feed.id]);
  });

  it('connects console ports to console server ports', async () => {
    const server = await device('con-srv');
    const host = await device('con-host');
    const csp = await made(`${API}/console-server-ports/`, { device: server.id, name: 'ttyS1' });
    const cp = await made(`${API}/console-ports/`, { device: host.id, name: 'Console' });
    const c = await cable([['dcim.consoleserverport', csp]], [['dcim.consoleport', cp]]);
    expect(await traced(`${API}/console-ports/${cp.id}/trace/`)).toEqual([[['Console'], c.id, ['ttyS1']]]);
    expect(await traced(`${API}/console-server-ports/${csp.id}/trace/`)).toEqual([[['ttyS1'], c.id, ['Console']]]);
    expect((await get(`${API}/console-ports/${cp.id}/`)).connected_endpoints).toMatchObject([{ id: csp.id }]);
  });
});

describe('connected device', () => {
  it('finds the device at the far end of an interface, as NetBox\'s locator does', async () => {
    const leaf = await device('leaf9');
    const spine = await device('spine9');
    const a = await iface(leaf, 'uplink');
    const b = await iface(spine, 'down9');
    await cable([['dcim.interface', a]], [['dcim.interface', b]]);
    const found = await t.get(`${API}/connected-device/?peer_device=spine9&peer_interface=down9`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: leaf.id, name: 'leaf9', site: { id: site.id } });
    expect((await t.get(`${API}/connected-device/?peer_device=spine9`)).body).toEqual({ detail: 'Request must include "peer_device" and "peer_interface" filters.' });
    expect((await t.get(`${API}/connected-device/?peer_device=spine9&peer_interface=nope`)).status).toBe(404);
    expect((await t.get(`${API}/connected-device/?peer_device=nobody&peer_interface=down9`)).status).toBe(404);
  });
});

describe('cabling seen from elsewhere', () => {
  it('shows an IP address\'s interface with its cable and connection status (spec §2.3)', async () => {
    const host = await device('ip-host');
    const peer = await device('ip-peer');
    const [a, b] = [await iface(host, 'eth0'), await iface(peer, 'eth0')];
    const address = (await t.post('/api/ipam/ip-addresses/', { address: '192.0.2.10/24', assigned_object_type: 'dcim.interface', assigned_object_id: a.id })).body;
    expect(address.assigned_object).toMatchObject({ cable: null, connection_status: null });
    const c = await cable([['dcim.interface', a]], [['dcim.interface', b]], { status: 'planned' });
    const read = async () => (await get(`/api/ipam/ip-addresses/${address.id}/`)).assigned_object;
    expect(await read()).toMatchObject({ id: a.id, cable: { id: c.id }, _occupied: true, connection_status: { value: false, label: 'Planned' } });
    await t.request('PATCH', `${API}/cables/${c.id}/`, { body: { status: 'connected' } });
    expect((await read()).connection_status).toEqual({ value: true, label: 'Connected' });
    // Not a key of the interface's own representation.
    expect(await get(`${API}/interfaces/${a.id}/`)).not.toHaveProperty('connection_status');
  });

  it('records the ids at each end in the change log', async () => {
    const host = await device('log-host');
    const [a, b] = [await iface(host, 'e1'), await iface(host, 'e2')];
    const c = await cable([['dcim.interface', a]], [['dcim.interface', b]]);
    const changes = (await get(`/api/core/object-changes/?changed_object_type=dcim.cable&changed_object_id=${c.id}`)).results as Body[];
    expect(changes).toHaveLength(1);
    expect(changes[0].postchange_data).toMatchObject({ a_terminations: [a.id], b_terminations: [b.id], status: 'connected' });
  });
});

describe('more cabling', () => {
  it('carries each position of a multi-position trunk to its own front port', async () => {
    const west = await device('west');
    const east = await device('east');
    const boxes = await Promise.all(['mux-w', 'mux-e'].map(async (name) => {
      const dev = await device(name);
      const rear = await made(`${API}/rear-ports/`, { device: dev.id, name: 'Trunk', type: 'mpo', positions: 2 });
      const fronts = [await made(`${API}/front-ports/`, { device: dev.id, name: 'P1', type: 'lc', rear_port: rear.id, rear_port_position: 1 })];
      fronts.push(await made(`${API}/front-ports/`, { device: dev.id, name: 'P2', type: 'lc', rear_port: rear.id, rear_port_position: 2 }));
      return { rear, fronts };
    }));
    const [w1, w2, e1, e2] = [await iface(west, 'a'), await iface(west, 'b'), await iface(east, 'a'), await iface(east, 'b')];
    await cable([['dcim.interface', w1]], [['dcim.frontport', boxes[0].fronts[0]]]);
    await cable([['dcim.interface', w2]], [['dcim.frontport', boxes[0].fronts[1]]]);
    await cable([['dcim.frontport', boxes[1].fronts[0]]], [['dcim.interface', e1]]);
    await cable([['dcim.frontport', boxes[1].fronts[1]]], [['dcim.interface', e2]]);
    // Before the trunk, the position is remembered but leads nowhere.
    expect((await get(`${API}/interfaces/${w1.id}/`)).connected_endpoints).toBeNull();
    await cable([['dcim.rearport', boxes[0].rear]], [['dcim.rearport', boxes[1].rear]]);
    expect((await get(`${API}/interfaces/${w1.id}/`)).connected_endpoints).toMatchObject([{ id: e1.id }]);
    expect((await get(`${API}/interfaces/${w2.id}/`)).connected_endpoints).toMatchObject([{ id: e2.id }]);
    expect((await get(`${API}/interfaces/${e2.id}/`)).connected_endpoints).toMatchObject([{ id: w2.id }]);
    expect((await get(`${API}/rear-ports/${boxes[0].rear.id}/paths/`)) as Body[]).toHaveLength(4);
    // Swapping the far front ports' positions swaps the far ends.
    await t.request('PATCH', `${API}/front-ports/${boxes[1].fronts[0].id}/`, { body: { rear_port_position: 2 } }).then((r) => expect(r.status).toBe(400));
    await t.request('DELETE', `${API}/front-ports/${boxes[1].fronts[1].id}/`);
    expect((await get(`${API}/interfaces/${w2.id}/`)).connected_endpoints).toBeNull();
    expect((await get(`${API}/interfaces/${e2.id}/`)).cable).toMatchObject({ id: expect.any(Number) });
    await t.request('PATCH', `${API}/front-ports/${boxes[1].fronts[0].id}/`, { body: { rear_port_position: 2 } });
    expect((await get(`${API}/interfaces/${w2.id}/`)).connected_endpoints).toMatchObject([{ id: e1.id }]);
    expect((await get(`${API}/interfaces/${w1.id}/`)).connected_endpoints).toBeNull();
  });

  it('creates cables in bulk, lists their terminations, and forgets an interface that goes', async () => {
    const one = await device('bulk1');
    const two = await device('bulk2');
    const left = await Promise.all([0, 1, 2].map((n) => iface(one, `ge-${n}`)));
    const right = await Promise.all([0, 1, 2].map((n) => iface(two, `ge-${n}`)));
    const created = await t.post(`${API}/cables/`, left.map((l, n) => ({ a_terminations: [ref('dcim.interface', l)], b_terminations: [ref('dcim.interface', right[n])], color: 'ff0000' })));
    expect(created.status).toBe(201);
    const cables = created.body as Body[];
    expect(cables.map((c) => c.a_terminations[0].object_id)).toEqual(left.map((l) => l.id));
    expect((await get(`${API}/interfaces/${right[2].id}/`)).connected_endpoints).toMatchObject([{ id: left[2].id }]);

    const terminations = (await get(`${API}/cable-terminations/?cable=${cables[0].id}`)).results as Body[];
    expect(terminations).toMatchObject([
      { cable: { id: cables[0].id }, cable_end: { value: 'A' }, termination_type: 'dcim.interface', termination_id: left[0].id, termination: { id: left[0].id } },
      { cable: { id: cables[0].id }, cable_end: { value: 'B' }, termination_type: 'dcim.interface', termination_id: right[0].id },
    ]);
    expect(terminations[0].display).toBe(`Cable #${cables[0].id} to ge-0`);

    // Cable filters along their ends.
    expect(await ids(`${API}/cables/?device=bulk1&color=ff0000`)).toEqual(cables.map((c) => c.id));
    expect(await ids(`${API}/cables/?interface_id=${right[1].id}`)).toEqual([cables[1].id]);
    expect(await ids(`${API}/cables/?termination_a_id=${left[2].id}&termination_a_type=dcim.interface`)).toEqual([cables[2].id]);
    expect(await ids(`${API}/cables/?termination_b_id=${left[2].id}`)).toEqual([]);
    expect(await ids(`${API}/cables/?site_id=${site.id}&device_id=${two.id}`)).toEqual(cables.map((c) => c.id));
    expect((await t.get(`${API}/cables/?termination_a_type=dcim.device`)).status).toBe(400);
    expect((await t.get(`${API}/cables/?device_id=x`)).status).toBe(400);
    // Interface filters on their cabling.
    const onOne = `${API}/interfaces/?device_id=${one.id}`;
    expect(await ids(`${onOne}&cabled=true`)).toEqual(left.map((l) => l.id));
    expect(await ids(`${onOne}&connected=true&cable_id=${cables[1].id}`)).toEqual([left[1].id]);
    expect(await ids(`${onOne}&cable_end=A&occupied=true`)).toEqual(left.map((l) => l.id));

    // An interface that goes leaves its cable with one end, and its peer without a path.
    expect((await t.request('DELETE', `${API}/interfaces/${left[0].id}/`)).status).toBe(204);
    expect(await get(`${API}/interfaces/${right[0].id}/`)).toMatchObject({ cable: { id: cables[0].id }, link_peers: [], connected_endpoints: null, connected_endpoints_reachable: false });
    expect((await get(`${API}/cables/${cables[0].id}/`)).a_terminations).toEqual([]);
    expect(await ids(`${API}/cables/?unterminated=true&device_id=${two.id}`)).toEqual([cables[0].id]);
    expect(await ids(`${API}/cables/?unterminated=false&device_id=${two.id}`)).toEqual([cables[1].id, cables[2].id]);

    // A termination written on its own attaches and traces like one written through the cable.
    const spare = await iface(one, 'ge-9');
    const added = await t.post(`${API}/cable-terminations/`, { cable: cables[0].id, cable_end: 'A', termination_type: 'dcim.interface', termination_id: spare.id });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await get(`${API}/interfaces/${right[0].id}/`)).connected_endpoints).toMatchObject([{ id: spare.id }]);
    expect((await t.post(`${API}/cable-terminations/`, { cable: cables[1].id, cable_end: 'A', termination_type: 'dcim.interface', termination_id: spare.id })).status).toBe(400);
    expect((await t.request('DELETE', `${API}/cable-terminations/${added.body.id}/`)).status).toBe(204);
    expect(await get(`${API}/interfaces/${spare.id}/`)).toMatchObject({ cable: null, _occupied: false });
  });
});

describe('cabling under load', () => {
  it('re-traces only the paths a change touches', async () => {
    const [x, y] = [await device('iso-x'), await device('iso-y')];
    const [x1, y1, x2, y2] = [await iface(x, 'p1'), await iface(y, 'p1'), await iface(x, 'p2'), await iface(y, 'p2')];
    const mine = await cable([['dcim.interface', x1]], [['dcim.interface', y1]]);
    await cable([['dcim.interface', x2]], [['dcim.interface', y2]]);
    const db = t.server.db.knex;
    const paths = () => db.raw(`select p.id, p.last_updated::text, p.path::text from dcim_cablepath p
      where p.id in (select path_id from dcim_cablepathnode where node in (?, ?)) order by p.id`, [`dcim.interface:${x2.id}`, `dcim.interface:${y2.id}`]);
    const before = (await paths()).rows;
    expect(before).toHaveLength(2);
    await t.request('PATCH', `${API}/cables/${mine.id}/`, { body: { status: 'planned' } });
    await t.request('DELETE', `${API}/cables/${mine.id}/`);
    expect((await paths()).rows).toEqual(before);
  });

  it('gives one port to one of two writes racing for it, and paths built by parallel writes come out whole', async () => {
    const [a, b, c] = [await device('race-a'), await device('race-b'), await device('race-c')];
    const [pa, pb, pc] = [await iface(a, 'x'), await iface(b, 'x'), await iface(c, 'x')];
    const racing = await Promise.all([pb, pc].map((other) =>
      t.post(`${API}/cables/`, { a_terminations: [ref('dcim.interface', pa)], b_terminations: [ref('dcim.interface', other)] })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 400]);
    expect((await get(`${API}/cables/?interface_id=${pa.id}`)).count).toBe(1);

    const left = await device('race-left');
    const right = await device('race-right');
    const [p1, p2] = [await panel('race-pp1'), await panel('race-pp2')];
    const [l, r] = [await iface(left, 'x'), await iface(right, 'x')];
    const created = await Promise.all([
      t.post(`${API}/cables/`, { a_terminations: [ref('dcim.interface', l)], b_terminations: [ref('dcim.frontport', p1.fronts[0])] }),
      t.post(`${API}/cables/`, { a_terminations: [ref('dcim.rearport', p1.rears[0])], b_terminations: [ref('dcim.rearport', p2.rears[0])] }),
      t.post(`${API}/cables/`, { a_terminations: [ref('dcim.frontport', p2.fronts[0])], b_terminations: [ref('dcim.interface', r)] }),
    ]);
    expect(created.map((res) => res.status)).toEqual([201, 201, 201]);
    expect((await get(`${API}/interfaces/${l.id}/`)).connected_endpoints).toMatchObject([{ id: r.id }]);
    expect((await get(`${API}/interfaces/${r.id}/`)).connected_endpoints).toMatchObject([{ id: l.id }]);
  });
});
