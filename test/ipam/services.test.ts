import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/ipam';
let device: Body;
let eth: Body;

beforeAll(async () => {
  t = await startServer();
  const { body: site } = await t.post('/api/dcim/sites/', { name: 'S1', slug: 's1' });
  const { body: vendor } = await t.post('/api/dcim/manufacturers/', { name: 'V', slug: 'v' });
  const { body: type } = await t.post('/api/dcim/device-types/', { manufacturer: vendor.id, model: 'T', slug: 't' });
  const { body: role } = await t.post('/api/dcim/device-roles/', { name: 'R', slug: 'r' });
  ({ body: device } = await t.post('/api/dcim/devices/', { name: 'fw1', device_type: type.id, role: role.id, site: site.id }));
  ({ body: eth } = await t.post('/api/dcim/interfaces/', { device: device.id, name: 'eth0', type: '1000base-t' }));
});
afterAll(async () => {
  await t?.close();
});

describe('FHRP groups', () => {
  it('show their name, protocol, group ID and first address; take addresses and interfaces', async () => {
    const { body: group } = await t.post(`${API}/fhrp-groups/`, { name: 'gw', protocol: 'vrrp2', group_id: 10, auth_type: 'md5', auth_key: 'secret' });
    expect(group).toMatchObject({ display: 'gw VRRPv2: 10', protocol: { value: 'vrrp2', label: 'VRRPv2' }, ip_addresses: [] });
    const { body: vip } = await t.post(`${API}/ip-addresses/`, { address: '192.0.2.1/24', role: 'vrrp', assigned_object_type: 'ipam.fhrpgroup', assigned_object_id: group.id });
    const read = (await t.get(`${API}/fhrp-groups/${group.id}/`)).body;
    expect(read.display).toBe('gw VRRPv2: 10 (192.0.2.1/24)');
    expect(read.ip_addresses.map((a: Body) => a.id)).toEqual([vip.id]);
    expect((await t.get(`${API}/ip-addresses/?fhrpgroup_id=${group.id}`)).body.count).toBe(1);

    const { body: own } = await t.post(`${API}/ip-addresses/`, { address: '192.0.2.2/24', assigned_object_type: 'dcim.interface', assigned_object_id: eth.id });
    expect((await t.get(`${API}/fhrp-groups/?related_ip=${own.id}`)).body.results.map((g: Body) => g.id)).toEqual([group.id]);

    const assigned = await t.post(`${API}/fhrp-group-assignments/`, { group: group.id, interface_type: 'dcim.interface', interface_id: eth.id, priority: 200 });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    expect(assigned.body).toMatchObject({ display: 'eth0: gw VRRPv2: 10 (192.0.2.1/24) (200)', interface: { id: eth.id, name: 'eth0' }, priority: 200 });
    expect(Object.keys((await t.get(`${API}/fhrp-group-assignments/?brief=1`)).body.results[0])).toEqual(['id', 'url', 'display', 'group', 'interface_type', 'interface_id', 'priority']);
    expect((await t.post(`${API}/fhrp-group-assignments/`, { group: group.id, interface_type: 'dcim.interface', interface_id: eth.id, priority: 100 })).status).toBe(400);
    expect((await t.post(`${API}/fhrp-group-assignments/`, { group: group.id, interface_type: 'dcim.site', interface_id: 1, priority: 100 })).status).toBe(400);
    expect((await t.post(`${API}/fhrp-group-assignments/`, { group: group.id, interface_type: 'dcim.interface', interface_id: eth.id, priority: 300 })).body).toEqual({
      priority: ['Ensure this value is less than or equal to 255.'],
    });
    expect((await t.get(`${API}/fhrp-group-assignments/?device_id=${device.id}`)).body.count).toBe(1);
    expect((await t.get(`${API}/fhrp-group-assignments/?device=nothing`)).body.count).toBe(0);
  });
});

describe('services', () => {
  it('templates and services show protocol and port ranges; services hang off a device or FHRP group and filter by it', async () => {
    const { body: template } = await t.post(`${API}/service-templates/`, { name: 'Web', protocol: 'tcp', ports: [443, 80, 81] });
    expect(template).toMatchObject({ display: 'Web (TCP/80-81, 443)', ports: [443, 80, 81] });
    expect((await t.post(`${API}/service-templates/`, { name: 'Bad', protocol: 'tcp', ports: [70000] })).body).toEqual({ ports: ['Ensure each port is a whole number between 1 and 65535.'] });
    expect((await t.post(`${API}/service-templates/`, { name: 'None', protocol: 'tcp', ports: [] })).status).toBe(400);
    const { body: ip } = await t.post(`${API}/ip-addresses/`, { address: '198.51.100.5/24', assigned_object_type: 'dcim.interface', assigned_object_id: eth.id });
    const made = await t.post(`${API}/services/`, { parent_object_type: 'dcim.device', parent_object_id: device.id, name: 'ssh', protocol: 'tcp', ports: [22], ipaddresses: [ip.id] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ display: 'ssh (TCP/22)', parent: { id: device.id, name: 'fw1' }, ipaddresses: [{ id: ip.id }] });
    expect((await t.get(`${API}/services/?device_id=${device.id}&port=22`)).body.count).toBe(1);
    expect((await t.get(`${API}/services/?device=fw1&port=80`)).body.count).toBe(0);
    expect((await t.get(`${API}/services/?ip_address=198.51.100.5/24`)).body.count).toBe(1);
    expect((await t.get(`${API}/ip-addresses/?service_id=${made.body.id}`)).body.count).toBe(1);
    expect((await t.post(`${API}/services/`, { parent_object_type: 'dcim.site', parent_object_id: 1, name: 'x', protocol: 'tcp', ports: [1] })).status).toBe(400);
  });
});

describe('VLAN translation', () => {
  it('policies list their rules; a rule maps one local VID to one remote VID per policy', async () => {
    const { body: policy } = await t.post(`${API}/vlan-translation-policies/`, { name: 'Carrier A' });
    const rule = await t.post(`${API}/vlan-translation-rules/`, { policy: policy.id, local_vid: 100, remote_vid: 200 });
    expect(rule.body).toMatchObject({ display: '100 -> 200 (Carrier A)', policy: { id: policy.id } });
    expect((await t.post(`${API}/vlan-translation-rules/`, { policy: policy.id, local_vid: 100, remote_vid: 201 })).status).toBe(400);
    expect((await t.post(`${API}/vlan-translation-rules/`, { policy: policy.id, local_vid: 5000, remote_vid: 201 })).status).toBe(400);
    expect((await t.get(`${API}/vlan-translation-policies/${policy.id}/`)).body.rules.map((r: Body) => r.id)).toEqual([rule.body.id]);
    expect((await t.get(`${API}/vlan-translation-rules/?policy=Carrier A`)).status).toBe(200);
    expect((await t.get(`${API}/vlan-translation-rules/?policy_id=${policy.id}&local_vid=100`)).body.count).toBe(1);
  });
});
