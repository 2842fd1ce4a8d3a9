import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const DCIM = '/api/dcim';
const API = '/api/circuits';

const made = async (path: string, body: object) => {
  const res = await t.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Body;
};
const get = async (path: string) => (await t.get(path)).body as Body;
const ids = async (path: string) => ((await t.get(path)).body.results as Body[]).map((r) => r.id);
const cable = (a: [string, Body], b: [string, Body]) =>
  made(`${DCIM}/cables/`, { a_terminations: [{ object_type: a[0], object_id: a[1].id }], b_terminations: [{ object_type: b[0], object_id: b[1].id }] });
const traced = async (path: string) =>
  ((await get(path)) as Body[][]).map(([near, c, far]) => [(near as Body[]).map((o) => o.display), c?.id ?? null, (far as Body[]).map((o) => o.display)]);

let paris: Body;
let oslo: Body;
let provider: Body;
let kind: Body;
let deviceType: Body;
let role: Body;

beforeAll(async () => {
  t = await startServer();
  paris = await made(`${DCIM}/sites/`, { name: 'Paris', slug: 'paris' });
  oslo = await made(`${DCIM}/sites/`, { name: 'Oslo', slug: 'oslo' });
  provider = await made(`${API}/providers/`, { name: 'Lumen', slug: 'lumen' });
  kind = await made(`${API}/circuit-types/`, { name: 'Wave', slug: 'wave' });
  const vendor = await made(`${DCIM}/manufacturers/`, { name: 'Acme', slug: 'acme' });
  deviceType = await made(`${DCIM}/device-types/`, { manufacturer: vendor.id, model: 'Router', slug: 'router' });
  role = await made(`${DCIM}/device-roles/`, { name: 'Edge', slug: 'edge' });
});
afterAll(async () => {
  await t?.close();
});

const router = async (name: string, site: Body) => {
  const device = await made(`${DCIM}/devices/`, { name, device_type: deviceType.id, role: role.id, site: site.id });
  return made(`${DCIM}/interfaces/`, { device: device.id, name: 'xe-0/0/0', type: '10gbase-x-sfpp' });
};

describe('a circuit between two sites', () => {
  it('connects the interfaces cabled to its ends, and follows its terminations as they change', async () => {
    const circuit = await made(`${API}/circuits/`, { cid: 'WAVE-1', provider: provider.id, type: kind.id });
    const a = await made(`${API}/circuit-terminations/`, { circuit: circuit.id, term_side: 'A', termination_type: 'dcim.site', termination_id: paris.id });
    const left = await router('par-edge', paris);
    const right = await router('osl-edge', oslo);
    const c1 = await cable(['dcim.interface', left], ['circuits.circuittermination', a]);
    // The Z end does not exist yet: the path ends at the circuit's A end.
    expect(await traced(`${DCIM}/interfaces/${left.id}/trace/`)).toEqual([[['xe-0/0/0'], c1.id, ['WAVE-1: Termination A']]]);
    expect((await get(`${DCIM}/interfaces/${left.id}/`)).connected_endpoints).toBeNull();

    const z = await made(`${API}/circuit-terminations/`, { circuit: circuit.id, term_side: 'Z', termination_type: 'dcim.site', termination_id: oslo.id });
    // Z terminates at Oslo, uncabled: the path reaches the site.
    expect(await traced(`${DCIM}/interfaces/${left.id}/trace/`)).toEqual([
      [['xe-0/0/0'], c1.id, ['WAVE-1: Termination A']],
      [['WAVE-1: Termination Z'], null, ['Oslo']],
    ]);
    const c2 = await cable(['circuits.circuittermination', z], ['dcim.interface', right]);
    expect(await traced(`${DCIM}/interfaces/${left.id}/trace/`)).toEqual([
      [['xe-0/0/0'], c1.id, ['WAVE-1: Termination A']],
      [['WAVE-1: Termination Z'], c2.id, ['xe-0/0/0']],
    ]);
    expect(await get(`${DCIM}/interfaces/${left.id}/`)).toMatchObject({ connected_endpoints: [{ id: right.id }], connected_endpoints_reachable: true });
    expect(await get(`${DCIM}/interfaces/${right.id}/`)).toMatchObject({ connected_endpoints: [{ id: left.id }], link_peers_type: 'circuits.circuittermination' });
    expect(await get(`${API}/circuit-terminations/${a.id}/`)).toMatchObject({
      cable: { id: c1.id }, cable_end: 'B', _occupied: true, link_peers_type: 'dcim.interface', link_peers: [{ id: left.id }],
    });
    expect(await ids(`${API}/circuit-terminations/?cabled=true`)).toEqual([a.id, z.id]);
    const through = (await get(`${API}/circuit-terminations/${z.id}/paths/`)) as Body[];
    expect(through).toHaveLength(2);
    expect(through.every((p) => p.is_complete && p.is_active)).toBe(true);
    // Cables by where their ends are: the circuit's end at Oslo, the routers'.
    expect(await ids(`${DCIM}/cables/?site=oslo`)).toEqual([c2.id]);
    expect(await ids(`${DCIM}/cables/?circuittermination_id=${a.id}`)).toEqual([c1.id]);

    // Removing the Z end cuts the path short again.
    expect((await t.request('DELETE', `${API}/circuit-terminations/${z.id}/`)).status).toBe(204);
    expect(await get(`${DCIM}/interfaces/${left.id}/`)).toMatchObject({ connected_endpoints: null, connected_endpoints_reachable: false });
    expect(await get(`${DCIM}/interfaces/${right.id}/`)).toMatchObject({ cable: { id: c2.id }, link_peers: [], connected_endpoints: null });
  });

  it('ends complete at a provider network, which takes no cable', async () => {
    const network = await made(`${API}/provider-networks/`, { provider: provider.id, name: 'Backbone' });
    const circuit = await made(`${API}/circuits/`, { cid: 'NET-1', provider: provider.id, type: kind.id });
    const a = await made(`${API}/circuit-terminations/`, { circuit: circuit.id, term_side: 'A', termination_type: 'dcim.site', termination_id: paris.id });
    const z = await made(`${API}/circuit-terminations/`, { circuit: circuit.id, term_side: 'Z', termination_type: 'circuits.providernetwork', termination_id: network.id });
    const edge = await router('par-net', paris);
    const c = await cable(['dcim.interface', edge], ['circuits.circuittermination', a]);
    expect(await traced(`${DCIM}/interfaces/${edge.id}/trace/`)).toEqual([
      [['xe-0/0/0'], c.id, ['NET-1: Termination A']],
      [['NET-1: Termination Z'], null, ['Backbone']],
    ]);
    expect(await get(`${DCIM}/interfaces/${edge.id}/`)).toMatchObject({
      connected_endpoints_type: 'circuits.providernetwork', connected_endpoints: [{ id: network.id, name: 'Backbone' }], connected_endpoints_reachable: true,
    });
    const other = await router('par-net2', paris);
    const refused = await t.post(`${DCIM}/cables/`, {
      a_terminations: [{ object_type: 'dcim.interface', object_id: other.id }], b_terminations: [{ object_type: 'circuits.circuittermination', object_id: z.id }],
    });
    expect(refused.body).toEqual({ b_terminations: ['Circuit terminations attached to a provider network may not be cabled.'] });
    // A cabled end cannot move to a provider network either.
    const moved = await t.request('PATCH', `${API}/circuit-terminations/${a.id}/`, { body: { termination_type: 'circuits.providernetwork', termination_id: network.id } });
    expect(moved.body).toEqual({ termination: ['Circuit terminations attached to a provider network may not be cabled.'] });
  });
});
