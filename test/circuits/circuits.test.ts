import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/circuits';
let site: Body;
let room: Body;
let provider: Body;
let rival: Body;
let type: Body;

const made = async (path: string, body: object) => {
  const res = await t.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Body;
};
const ids = async (path: string) => {
  const res = await t.get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.results as Body[]).map((r) => r.id);
};

beforeAll(async () => {
  t = await startServer();
  const region = await made('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  site = await made('/api/dcim/sites/', { name: 'Paris', slug: 'paris', region: region.id });
  room = await made('/api/dcim/locations/', { name: 'MMR', slug: 'mmr', site: site.id });
  provider = await made(`${API}/providers/`, { name: 'Lumen', slug: 'lumen' });
  rival = await made(`${API}/providers/`, { name: 'Zayo', slug: 'zayo' });
  type = await made(`${API}/circuit-types/`, { name: 'Transit', slug: 'transit', color: 'ff0000' });
});
afterAll(async () => {
  await t?.close();
});

describe('providers', () => {
  it('list their accounts and AS numbers; accounts and networks are unique per provider', async () => {
    const { body: rir } = await t.post('/api/ipam/rirs/', { name: 'ARIN', slug: 'arin' });
    const asn = await made('/api/ipam/asns/', { asn: 3356, rir: rir.id });
    await t.request('PATCH', `${API}/providers/${provider.id}/`, { body: { asns: [asn.id] } });
    const account = await made(`${API}/provider-accounts/`, { provider: provider.id, account: '1234', name: 'Main' });
    expect(account.display).toBe('1234 (Main)');
    expect((await made(`${API}/provider-accounts/`, { provider: provider.id, account: '5678' })).display).toBe('5678');
    // A blank name may repeat; a set one may not, nor an account ID.
    await made(`${API}/provider-accounts/`, { provider: provider.id, account: '9999' });
    expect((await t.post(`${API}/provider-accounts/`, { provider: provider.id, account: '4321', name: 'Main' })).status).toBe(400);
    expect((await t.post(`${API}/provider-accounts/`, { provider: provider.id, account: '1234' })).status).toBe(400);
    await made(`${API}/provider-accounts/`, { provider: rival.id, account: '1234', name: 'Main' });
    await made(`${API}/provider-networks/`, { provider: provider.id, name: 'Backbone', service_id: 'BB-1' });
    expect((await t.post(`${API}/provider-networks/`, { provider: provider.id, name: 'Backbone' })).status).toBe(400);

    const read = (await t.get(`${API}/providers/${provider.id}/`)).body;
    expect(read.asns).toEqual([expect.objectContaining({ id: asn.id, asn: 3356 })]);
    expect(read.accounts.map((a: Body) => a.account)).toEqual(['1234', '5678', '9999']);
    expect((await t.get(`/api/ipam/asns/${asn.id}/`)).body.provider_count).toBe(1);
    expect(await ids(`/api/ipam/asns/?provider=lumen`)).toEqual([asn.id]);
    expect(await ids(`/api/ipam/asns/?provider_id=${rival.id}`)).toEqual([]);
    expect(await ids(`${API}/providers/?asn=3356`)).toEqual([provider.id]);
  });
});

describe('circuits', () => {
  it('take an account of their provider, a unit with a distance, and IDs unique per provider', async () => {
    const { body: theirs } = await t.post(`${API}/provider-accounts/`, { provider: rival.id, account: 'R-1' });
    expect((await t.post(`${API}/circuits/`, { cid: 'C-1', provider: provider.id, type: type.id, provider_account: theirs.id })).body).toEqual({
      provider_account: ['The assigned account must belong to the assigned provider.'],
    });
    expect((await t.post(`${API}/circuits/`, { cid: 'C-1', provider: provider.id, type: type.id, distance: 12.5 })).body).toEqual({
      distance_unit: ['Must specify a unit when setting a distance'],
    });
    const circuit = await made(`${API}/circuits/`, {
      cid: 'C-1', provider: provider.id, type: type.id, distance: 12.5, distance_unit: 'km', commit_rate: 10000, install_date: '2026-01-15', status: 'planned',
    });
    expect(circuit).toMatchObject({
      display: 'C-1', provider: { id: provider.id, name: 'Lumen' }, type: { id: type.id }, status: { value: 'planned', label: 'Planned' }, distance: 12.5,
      distance_unit: { value: 'km', label: 'Kilometers' }, install_date: '2026-01-15', termination_a: null, termination_z: null, assignments: [],
    });
    expect((await t.post(`${API}/circuits/`, { cid: 'C-1', provider: provider.id, type: type.id })).status).toBe(400);
    await made(`${API}/circuits/`, { cid: 'C-1', provider: rival.id, type: type.id });
    const cleared = await t.request('PATCH', `${API}/circuits/${circuit.id}/`, { body: { distance: null } });
    expect(cleared.body).toMatchObject({ distance: null, distance_unit: null });
    expect((await t.get(`${API}/circuit-types/${type.id}/`)).body.circuit_count).toBe(2);
    expect((await t.get(`${API}/providers/${provider.id}/`)).body.circuit_count).toBe(1);
  });

  it('terminate at a place or on a provider network, one per side, read back on the circuit and filtered by place', async () => {
    const circuit = await made(`${API}/circuits/`, { cid: 'T-1', provider: provider.id, type: type.id });
    const network = await made(`${API}/provider-networks/`, { provider: provider.id, name: 'MPLS' });
    const a = await made(`${API}/circuit-terminations/`, {
      circuit: circuit.id, term_side: 'A', termination_type: 'dcim.location', termination_id: room.id, port_speed: 1000000, xconnect_id: 'XC-42', pp_info: 'PP1:3',
    });
    expect(a).toMatchObject({ display: 'T-1: Termination A', term_side: { value: 'A', label: 'A' }, termination_type: 'dcim.location', termination: { id: room.id, name: 'MMR' } });
    expect((await t.post(`${API}/circuit-terminations/`, { circuit: circuit.id, term_side: 'A' })).status).toBe(400);
    expect((await t.post(`${API}/circuit-terminations/`, { circuit: circuit.id, term_side: 'Z', termination_type: 'dcim.device', termination_id: 1 })).body).toEqual({
      termination_type: ['Invalid content type: dcim.device'],
    });
    const z = await made(`${API}/circuit-terminations/`, { circuit: circuit.id, term_side: 'Z', termination_type: 'circuits.providernetwork', termination_id: network.id });
    const read = (await t.get(`${API}/circuits/${circuit.id}/`)).body;
    expect(read.termination_a).toEqual({
      id: a.id, url: `${t.base}${API}/circuit-terminations/${a.id}/`, display_url: expect.any(String), display: 'T-1: Termination A',
      termination_type: 'dcim.location', termination_id: room.id, termination: expect.objectContaining({ id: room.id, name: 'MMR' }),
      port_speed: 1000000, upstream_speed: null, xconnect_id: 'XC-42', description: '',
    });
    expect(read.termination_z).toMatchObject({ id: z.id, termination_type: 'circuits.providernetwork', termination: { id: network.id, name: 'MPLS' } });

    // A location's circuit is at its site and in its region.
    expect(await ids(`${API}/circuits/?site_id=${site.id}`)).toEqual([circuit.id]);
    expect(await ids(`${API}/circuits/?region=europe`)).toEqual([circuit.id]);
    expect(await ids(`${API}/circuits/?provider_network_id=${network.id}`)).toEqual([circuit.id]);
    expect(await ids(`${API}/circuits/?termination_a_id=${a.id}`)).toEqual([circuit.id]);
    expect(await ids(`${API}/circuits/?q=xc-42`)).toEqual([circuit.id]);
    expect(await ids(`${API}/circuit-terminations/?site=paris`)).toEqual([a.id]);
    expect(await ids(`${API}/circuit-terminations/?provider=lumen&term_side=Z`)).toEqual([z.id]);
    expect(await ids(`${API}/circuit-terminations/?q=T-1`)).toEqual([a.id, z.id]);
    expect(await ids(`${API}/providers/?site_id=${site.id}`)).toEqual([provider.id]);
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).body.circuit_count).toBe(1);
    expect((await t.get(`${API}/circuits/?site_id=abc`)).status).toBe(400);
  });
});

describe('circuit groups', () => {
  it('gather circuits and virtual circuits with a priority, counted and filtered by member and provider', async () => {
    const group = await made(`${API}/circuit-groups/`, { name: 'Backbone', slug: 'backbone' });
    const circuit = await made(`${API}/circuits/`, { cid: 'G-1', provider: provider.id, type: type.id });
    const assignment = await made(`${API}/circuit-group-assignments/`, { group: group.id, member_type: 'circuits.circuit', member_id: circuit.id, priority: 'primary' });
    expect(assignment).toMatchObject({ display: 'Backbone (Primary)', member_type: 'circuits.circuit', member: { id: circuit.id, cid: 'G-1' } });
    expect((await t.post(`${API}/circuit-group-assignments/`, { group: group.id, member_type: 'circuits.circuit', member_id: circuit.id })).status).toBe(400);
    expect((await t.get(`${API}/circuits/${circuit.id}/`)).body.assignments).toEqual([
      { id: assignment.id, url: expect.any(String), display_url: expect.any(String), display: 'Backbone (Primary)', group: expect.objectContaining({ id: group.id }), priority: { value: 'primary', label: 'Primary' } },
    ]);
    expect((await t.get(`${API}/circuit-groups/${group.id}/`)).body.circuit_count).toBe(1);
    expect(await ids(`${API}/circuit-group-assignments/?circuit_id=${circuit.id}`)).toEqual([assignment.id]);
    expect(await ids(`${API}/circuit-group-assignments/?provider=lumen`)).toEqual([assignment.id]);
    expect(await ids(`${API}/circuit-group-assignments/?provider=zayo`)).toEqual([]);
    expect(await ids(`${API}/circuit-group-assignments/?q=G-1`)).toEqual([assignment.id]);
    expect((await t.get(`${API}/circuit-group-assignments/?circuit_id=abc`)).status).toBe(400);
    expect((await t.get('/api/ipam/services/?device_id=abc')).status).toBe(400);
  });
});

describe('virtual circuits', () => {
  it('run on a provider network, take its provider\'s accounts, and terminate on virtual interfaces', async () => {
    const network = await made(`${API}/provider-networks/`, { provider: provider.id, name: 'EVPN' });
    const vcType = await made(`${API}/virtual-circuit-types/`, { name: 'EVPN', slug: 'evpn' });
    const { body: theirs } = await t.post(`${API}/provider-accounts/`, { provider: rival.id, account: 'V-1' });
    expect((await t.post(`${API}/virtual-circuits/`, { cid: 'VC-1', provider_network: network.id, type: vcType.id, provider_account: theirs.id })).body).toEqual({
      provider_account: ['The assigned account must belong to the provider of the assigned network.'],
    });
    const vc = await made(`${API}/virtual-circuits/`, { cid: 'VC-1', provider_network: network.id, type: vcType.id });
    expect(vc).toMatchObject({ display: 'VC-1', provider_network: { id: network.id, name: 'EVPN' }, status: { value: 'active' } });

    const vendor = await made('/api/dcim/manufacturers/', { name: 'V', slug: 'v' });
    const deviceType = await made('/api/dcim/device-types/', { manufacturer: vendor.id, model: 'T', slug: 't' });
    const role = await made('/api/dcim/device-roles/', { name: 'R', slug: 'r' });
    const device = await made('/api/dcim/devices/', { name: 'pe1', device_type: deviceType.id, role: role.id, site: site.id });
    const physical = await made('/api/dcim/interfaces/', { device: device.id, name: 'xe-0/0/0', type: '10gbase-x-sfpp' });
    const unit = await made('/api/dcim/interfaces/', { device: device.id, name: 'xe-0/0/0.100', type: 'virtual', parent: physical.id });
    expect((await t.post(`${API}/virtual-circuit-terminations/`, { virtual_circuit: vc.id, interface: physical.id })).body).toEqual({
      interface: ['Virtual circuits may be terminated only to virtual interfaces.'],
    });
    const end = await made(`${API}/virtual-circuit-terminations/`, { virtual_circuit: vc.id, interface: unit.id, role: 'hub' });
    expect(end).toMatchObject({ display: 'VC-1: Hub termination', role: { value: 'hub', label: 'Hub' }, interface: { id: unit.id, name: 'xe-0/0/0.100' } });
    expect((await t.post(`${API}/virtual-circuit-terminations/`, { virtual_circuit: vc.id, interface: unit.id })).status).toBe(400);
    expect(await ids(`/api/dcim/interfaces/?virtual_circuit_id=${vc.id}`)).toEqual([unit.id]);
    expect(await ids(`/api/dcim/interfaces/?virtual_circuit_termination_id=${end.id}`)).toEqual([unit.id]);
    expect(await ids(`${API}/virtual-circuit-terminations/?provider=lumen&provider_network_id=${network.id}`)).toEqual([end.id]);
    expect(await ids(`${API}/virtual-circuits/?provider_id=${provider.id}`)).toEqual([vc.id]);
    expect((await t.get(`${API}/virtual-circuit-types/${vcType.id}/`)).body.virtual_circuit_count).toBe(1);
  });
});
