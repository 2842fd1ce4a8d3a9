import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/dcim';
let site: Body;
let otherSite: Body;
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
  otherSite = await made(`${API}/sites/`, { name: 'Oslo', slug: 'oslo' });
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
    const read = await get(`${API}/interfaces/${a.id}/`);
    expect(read).toMatchObject({
      cable: { id: c.id, display: 'X1', label: 'X1' }, cable_end: 'A', _occupied: true, mark_connected: false,
      link_peers_type: 'dcim.interface', link_peers: [{ id: b.id, name: 'eth0', device: { id: sw2.id, name: 'sw2' } }],
      connected_endpoints_type: 'dcim.interface', connected_endpoints: [{ id: b.id }], connected_endpoints_reachable: true,
    });
    expect((await get(`${API}/interfaces/${b.id}/`)).cable_end).toBe('B');
    expect(await traced(`${API}/interfaces/${a.id}/trace/`)).toEqual([[['eth0'], c.id, ['eth0']]]);
    const [[, tracedCable]] = (await get(`${API}/interfaces/${a.id}/trace/`)) as Body[][];
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
    await t.request('PATCH', `${API}/cables/${c.id}/`, { body: { b_terminations: [ref('dcim.interface', b2)] } });
    expect(await get(`${API}/interfaces/${b.id}/`)).toMatchObject({ cable: null, cable_end: null, link_peers: [], link_peers_type: null, connected_endpoints: null, _occupied: false });
    expect((await get(`${API}/interfaces/${a.id}/`)).connected_endpoints).toMatchObject([{ id: b2.id, name: 'eth1' }]);
    expect((await get(`${API}/interfaces/${b2.id}/`)).connected_endpoints).toMatchObject([{ id: a.id }]);

    // Deleting the cable clears both ends and their paths.
    expect((await t.request('DELETE', `${API}/cables/${c.id}/`)).status).toBe(204);
    for (const end of [a, b2]) {
      expect(await get(`${API}/interfaces/${end.id}/`)).toMatchObject({ cable: null, cable_end: null, connected_endpoints: null, connected_endpoints_reachable: null, _occupied: false });
    }
    expect(await get(`${API}/interfaces/${a.id}/trace/`)).toEqual([]);
  });
});

describe('paths through patch panels', () => {
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
