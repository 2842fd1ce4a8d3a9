import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/virtualization';
let site: Body;
let other: Body;
let type: Body;
let group: Body;
let host: Body;

const made = async (path: string, body: object) => {
  const res = await t.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Body;
};
const ids = async (path: string) => ((await t.get(path)).body.results as Body[]).map((r) => r.id);

beforeAll(async () => {
  t = await startServer();
  const region = await made('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  site = await made('/api/dcim/sites/', { name: 'Paris', slug: 'paris', region: region.id });
  other = await made('/api/dcim/sites/', { name: 'Oslo', slug: 'oslo' });
  type = await made(`${API}/cluster-types/`, { name: 'vSphere', slug: 'vsphere' });
  group = await made(`${API}/cluster-groups/`, { name: 'Prod', slug: 'prod' });
  const vendor = await made('/api/dcim/manufacturers/', { name: 'V', slug: 'v' });
  const deviceType = await made('/api/dcim/device-types/', { manufacturer: vendor.id, model: 'T', slug: 't' });
  const role = await made('/api/dcim/device-roles/', { name: 'Host', slug: 'host' });
  host = await made('/api/dcim/devices/', { name: 'esx1', device_type: deviceType.id, role: role.id, site: site.id });
});
afterAll(async () => {
  await t?.close();
});

describe('clusters', () => {
  it('are scoped like prefixes, unique by name in their group and at their site, and count and sum what they run', async () => {
    const cluster = await made(`${API}/clusters/`, { name: 'C1', type: type.id, group: group.id, scope_type: 'dcim.site', scope_id: site.id });
    expect(cluster).toMatchObject({
      type: { id: type.id, name: 'vSphere' }, group: { id: group.id }, status: { value: 'active', label: 'Active' },
      scope_type: 'dcim.site', scope: { id: site.id, name: 'Paris' }, device_count: 0, virtualmachine_count: 0,
      allocated_vcpus: null, allocated_memory: null, allocated_disk: null,
    });
    expect((await t.post(`${API}/clusters/`, { name: 'C1', type: type.id, group: group.id })).body).toEqual({ __all__: ['Cluster with this Group and Name already exists.'] });
    expect((await t.post(`${API}/clusters/`, { name: 'C1', type: type.id, scope_type: 'dcim.site', scope_id: site.id })).body).toEqual({
      __all__: ['Cluster with this Site and Name already exists.'],
    });
    // Another site may have its own C1.
    await made(`${API}/clusters/`, { name: 'C1', type: type.id, scope_type: 'dcim.site', scope_id: other.id });
    expect(await ids(`${API}/clusters/?site_id=${site.id}`)).toEqual([cluster.id]);
    expect(await ids(`${API}/clusters/?region=europe`)).toEqual([cluster.id]);
    expect(await ids(`${API}/clusters/?group=prod&type=vsphere`)).toEqual([cluster.id]);

    for (const [name, vcpus, memory] of [['vm-a', 2, 1024], ['vm-b', 1.5, 2048]] as const) {
      await made(`${API}/virtual-machines/`, { name, cluster: cluster.id, vcpus, memory });
    }
    expect((await t.get(`${API}/clusters/${cluster.id}/`)).body).toMatchObject({ virtualmachine_count: 2, allocated_vcpus: 3.5, allocated_memory: 3072, allocated_disk: null });
    expect((await t.get(`${API}/cluster-types/${type.id}/`)).body.cluster_count).toBe(2);
    expect((await t.get(`${API}/cluster-groups/${group.id}/`)).body.cluster_count).toBe(1);
  });

  it('hosts devices of its site and location only', async () => {
    const cluster = await made(`${API}/clusters/`, { name: 'Hosts', type: type.id, scope_type: 'dcim.site', scope_id: other.id });
    expect((await t.request('PATCH', `/api/dcim/devices/${host.id}/`, { body: { cluster: cluster.id } })).body).toEqual({ cluster: ['The assigned cluster belongs to a different site (Oslo)'] });
    const local = await made(`${API}/clusters/`, { name: 'Local', type: type.id, group: group.id, scope_type: 'dcim.site', scope_id: site.id });
    const set = await t.request('PATCH', `/api/dcim/devices/${host.id}/`, { body: { cluster: local.id } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.cluster).toMatchObject({ id: local.id, name: 'Local' });
    expect(await ids(`/api/dcim/devices/?cluster_id=${local.id}`)).toEqual([host.id]);
    expect(await ids('/api/dcim/devices/?cluster_group=prod')).toEqual([host.id]);
    expect((await t.get(`${API}/clusters/${local.id}/`)).body.device_count).toBe(1);
    // Moving the cluster away from its hosts' site is refused.
    expect((await t.request('PATCH', `${API}/clusters/${local.id}/`, { body: { scope_id: other.id } })).body).toEqual({
      scope: ['1 devices are assigned as hosts for this cluster but are not in site Oslo'],
    });
  });
});

describe('virtual machines', () => {
  it('sit at a site and/or in a cluster that agree, take their site from the cluster, and run on one of its hosts', async () => {
    const cluster = await made(`${API}/clusters/`, { name: 'VMs', type: type.id, scope_type: 'dcim.site', scope_id: site.id });
    expect((await t.post(`${API}/virtual-machines/`, { name: 'lost' })).body).toEqual({ cluster: ['A virtual machine must be assigned to a site and/or cluster.'] });
    expect((await t.post(`${API}/virtual-machines/`, { name: 'far', cluster: cluster.id, site: other.id })).body).toEqual({
      cluster: ['The selected cluster (VMs) is not assigned to this site (Oslo).'],
    });
    const vm = await made(`${API}/virtual-machines/`, { name: 'web01', cluster: cluster.id, vcpus: '2.5', memory: 4096, status: 'planned' });
    expect(vm).toMatchObject({
      site: { id: site.id, name: 'Paris' }, cluster: { id: cluster.id, name: 'VMs' }, vcpus: 2.5, memory: 4096, disk: null,
      status: { value: 'planned', label: 'Planned' }, primary_ip: null, primary_ip4: null, primary_ip6: null, interface_count: 0, virtual_disk_count: 0,
    });
    expect((await t.request('PATCH', `${API}/virtual-machines/${vm.id}/`, { body: { device: host.id } })).body).toEqual({
      device: ['The selected device (esx1) is not assigned to this cluster (VMs).'],
    });
    const standalone = await made(`${API}/virtual-machines/`, { name: 'solo', site: site.id });
    expect((await t.request('PATCH', `${API}/virtual-machines/${standalone.id}/`, { body: { device: host.id } })).body).toEqual({
      device: ['Must specify a cluster when assigning a host device.'],
    });
    // Names are unique per cluster, whatever their case.
    expect((await t.post(`${API}/virtual-machines/`, { name: 'WEB01', cluster: cluster.id })).body).toEqual({ __all__: ['Virtual machine name must be unique per cluster.'] });
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).body.virtualmachine_count).toBeGreaterThanOrEqual(2);
    expect(await ids(`${API}/virtual-machines/?name=WEB01`)).toEqual([vm.id]);
    expect(await ids(`${API}/virtual-machines/?cluster=VMs&site=paris&status=planned`)).toEqual([vm.id]);
    expect((await t.get(`${API}/virtual-machines/?vcpus=abc`)).status).toBe(400);
  });

  it('take their disk size from their virtual disks', async () => {
    const vm = await made(`${API}/virtual-machines/`, { name: 'db01', site: site.id, disk: 10 });
    await made(`${API}/virtual-disks/`, { virtual_machine: vm.id, name: 'root', size: 100 });
    const data = await made(`${API}/virtual-disks/`, { virtual_machine: vm.id, name: 'data', size: 400 });
    expect((await t.get(`${API}/virtual-machines/${vm.id}/`)).body).toMatchObject({ disk: 500, virtual_disk_count: 2 });
    expect((await t.request('PATCH', `${API}/virtual-machines/${vm.id}/`, { body: { disk: 600 } })).body).toEqual({
      disk: ['The specified disk size (600) must match the aggregate size of assigned virtual disks (500).'],
    });
    expect((await t.request('PATCH', `${API}/virtual-machines/${vm.id}/`, { body: { disk: null } })).body.disk).toBe(500);
    await t.request('DELETE', `${API}/virtual-disks/${data.id}/`);
    expect((await t.get(`${API}/virtual-machines/${vm.id}/`)).body.disk).toBe(100);
    expect((await t.post(`${API}/virtual-disks/`, { virtual_machine: vm.id, name: 'root', size: 1 })).status).toBe(400);
    expect((await t.get(`${API}/virtual-disks/?virtual_machine_id=${vm.id}`)).body.results).toEqual([
      expect.objectContaining({ name: 'root', size: 100, display: 'root', virtual_machine: expect.objectContaining({ id: vm.id, name: 'db01' }) }),
    ]);
  });
});

describe('VM interfaces and their addresses', () => {
  it('nest parents and bridges of the same VM, carry VLANs of its site, and take addresses read back with their VM', async () => {
    const vm = await made(`${API}/virtual-machines/`, { name: 'app01', site: site.id });
    const twin = await made(`${API}/virtual-machines/`, { name: 'app02', site: site.id });
    const eth0 = await made(`${API}/interfaces/`, { virtual_machine: vm.id, name: 'eth0', mtu: 9000 });
    const elsewhere = await made(`${API}/interfaces/`, { virtual_machine: twin.id, name: 'eth0' });
    expect((await t.post(`${API}/interfaces/`, { virtual_machine: vm.id, name: 'eth0.10', parent: elsewhere.id })).body).toEqual({
      parent: ['The selected parent interface (eth0) belongs to a different virtual machine (app02).'],
    });
    expect((await t.request('PATCH', `${API}/interfaces/${eth0.id}/`, { body: { bridge: eth0.id } })).body).toEqual({ bridge: ['An interface cannot be bridged to itself.'] });
    const sub = await made(`${API}/interfaces/`, { virtual_machine: vm.id, name: 'eth0.10', parent: eth0.id });
    expect(sub.parent).toEqual({ id: eth0.id, url: expect.any(String), display_url: expect.any(String), display: 'eth0', virtual_machine: expect.objectContaining({ id: vm.id }), name: 'eth0' });

    const farVlan = await made('/api/ipam/vlans/', { vid: 30, name: 'far', site: other.id });
    const vlan = await made('/api/ipam/vlans/', { vid: 10, name: 'ten', site: site.id });
    expect((await t.request('PATCH', `${API}/interfaces/${eth0.id}/`, { body: { mode: 'access', untagged_vlan: farVlan.id } })).body).toEqual({
      untagged_vlan: ["The untagged VLAN (far (30)) must belong to the same site as the interface's parent virtual machine, or it must be global."],
    });
    expect((await t.request('PATCH', `${API}/interfaces/${eth0.id}/`, { body: { mode: 'access', tagged_vlans: [vlan.id] } })).body).toEqual({
      tagged_vlans: ['Tagged VLANs may be assigned only to an interface in tagged mode.'],
    });
    const tagged = await t.request('PATCH', `${API}/interfaces/${eth0.id}/`, { body: { mode: 'tagged', untagged_vlan: vlan.id, tagged_vlans: [vlan.id] } });
    expect(tagged.status, JSON.stringify(tagged.body)).toBe(200);
    expect(tagged.body).toMatchObject({ mode: { value: 'tagged' }, untagged_vlan: { id: vlan.id }, tagged_vlans: [{ id: vlan.id }] });
    expect(await ids(`/api/ipam/vlans/?vminterface_id=${eth0.id}`)).toEqual([vlan.id]);
    expect(await ids(`${API}/interfaces/?vlan_id=${vlan.id}`)).toEqual([eth0.id]);

    const ip = await made('/api/ipam/ip-addresses/', { address: '192.0.2.10/24', assigned_object_type: 'virtualization.vminterface', assigned_object_id: eth0.id });
    expect(ip.assigned_object).toEqual({
      id: eth0.id, url: `${t.base}${API}/interfaces/${eth0.id}/`, display: 'eth0',
      virtual_machine: { id: vm.id, url: `${t.base}${API}/virtual-machines/${vm.id}/`, display: 'app01', name: 'app01', description: '' },
      name: 'eth0', description: '',
    });
    const v6 = await made('/api/ipam/ip-addresses/', { address: '2001:db8::10/64', assigned_object_type: 'virtualization.vminterface', assigned_object_id: sub.id });
    expect(await ids(`/api/ipam/ip-addresses/?virtual_machine_id=${vm.id}`)).toEqual([ip.id, v6.id]);
    expect(await ids('/api/ipam/ip-addresses/?virtual_machine=app01&vminterface=eth0')).toEqual([ip.id]);
    expect(await ids(`/api/ipam/ip-addresses/?vminterface_id=${sub.id}`)).toEqual([v6.id]);
    expect((await t.get(`${API}/interfaces/${eth0.id}/`)).body).toMatchObject({ count_ipaddresses: 1, count_fhrp_groups: 0 });

    // Primary addresses: of the family, on one of the VM's interfaces.
    const loose = await made('/api/ipam/ip-addresses/', { address: '192.0.2.99/24' });
    expect((await t.request('PATCH', `${API}/virtual-machines/${vm.id}/`, { body: { primary_ip4: loose.id } })).body).toEqual({
      primary_ip4: ['The specified IP address (192.0.2.99/24) is not assigned to this VM.'],
    });
    expect((await t.request('PATCH', `${API}/virtual-machines/${vm.id}/`, { body: { primary_ip4: v6.id } })).body).toEqual({ primary_ip4: ['2001:db8::10/64 is not an IPv4 address.'] });
    const set = await t.request('PATCH', `${API}/virtual-machines/${vm.id}/`, { body: { primary_ip4: ip.id, primary_ip6: v6.id } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ primary_ip: { id: v6.id }, primary_ip4: { id: ip.id, address: '192.0.2.10/24' }, interface_count: 2 });
    expect((await t.request('PATCH', `/api/ipam/ip-addresses/${ip.id}/`, { body: { assigned_object_id: elsewhere.id } })).body).toEqual({
      assigned_object: ['Cannot reassign IP address while it is designated as the primary IP for the parent object'],
    });
    expect(await ids(`${API}/virtual-machines/?has_primary_ip=true`)).toEqual([vm.id]);
    expect(await ids(`${API}/virtual-machines/?q=192.0.2.1`)).toEqual([vm.id]);
    expect(await ids(`${API}/virtual-machines/?q=app0`)).toEqual([vm.id, twin.id]);
    expect(await ids(`${API}/virtual-machines/?q=192.0.2.1_`)).toEqual([]);
    await t.request('DELETE', `/api/ipam/ip-addresses/${v6.id}/`);
    expect((await t.get(`${API}/virtual-machines/${vm.id}/`)).body).toMatchObject({ primary_ip6: null, primary_ip: { id: ip.id } });
  });

  it('take MAC addresses, found by VM and interface', async () => {
    const vm = await made(`${API}/virtual-machines/`, { name: 'mac01', site: site.id });
    const eth = await made(`${API}/interfaces/`, { virtual_machine: vm.id, name: 'eth0' });
    const mac = await made('/api/dcim/mac-addresses/', { mac_address: '00:11:22:33:44:55', assigned_object_type: 'virtualization.vminterface', assigned_object_id: eth.id });
    const set = await t.request('PATCH', `${API}/interfaces/${eth.id}/`, { body: { primary_mac_address: mac.id } });
    expect(set.body).toMatchObject({ mac_address: '00:11:22:33:44:55', primary_mac_address: { id: mac.id }, mac_addresses: [{ id: mac.id }] });
    expect(await ids(`/api/dcim/mac-addresses/?virtual_machine_id=${vm.id}`)).toEqual([mac.id]);
    expect(await ids(`/api/dcim/mac-addresses/?primary=true&vminterface_id=${eth.id}`)).toEqual([mac.id]);
    expect(await ids('/api/dcim/mac-addresses/?vminterface=eth0&virtual_machine=mac01')).toEqual([mac.id]);
    expect(await ids(`${API}/virtual-machines/?mac_address=00:11:22:33:44:55`)).toEqual([vm.id]);
    expect(await ids(`${API}/interfaces/?mac_address=00-11-22-33-44-55`)).toEqual([eth.id]);
    expect((await t.get(`${API}/interfaces/?mac_address=nope`)).status).toBe(400);
  });

  it('VLANs available on a VM come from its site and its cluster; groups scope to clusters; services and FHRP groups follow VMs', async () => {
    const cluster = await made(`${API}/clusters/`, { name: 'Scoped', type: type.id, group: group.id, scope_type: 'dcim.site', scope_id: site.id });
    const vm = await made(`${API}/virtual-machines/`, { name: 'vlan01', cluster: cluster.id });
    const byCluster = await made('/api/ipam/vlan-groups/', { name: 'Cluster VLANs', slug: 'cluster-vlans', scope_type: 'virtualization.cluster', scope_id: cluster.id });
    const byOther = await made('/api/ipam/vlan-groups/', { name: 'Oslo VLANs', slug: 'oslo-vlans', scope_type: 'dcim.site', scope_id: other.id });
    const mine = await made('/api/ipam/vlans/', { vid: 100, name: 'mine', group: byCluster.id });
    const theirs = await made('/api/ipam/vlans/', { vid: 200, name: 'theirs', group: byOther.id });
    const available = await ids(`/api/ipam/vlans/?available_on_virtualmachine=${vm.id}`);
    expect(available).toContain(mine.id);
    expect(available).not.toContain(theirs.id);
    expect(await ids(`/api/ipam/vlan-groups/?cluster=${cluster.id}`)).toEqual([byCluster.id]);
    expect((await t.get('/api/ipam/vlans/?available_on_virtualmachine=999999')).status).toBe(400);

    const service = await made('/api/ipam/services/', { parent_object_type: 'virtualization.virtualmachine', parent_object_id: vm.id, name: 'ssh', protocol: 'tcp', ports: [22] });
    expect(await ids(`/api/ipam/services/?virtual_machine_id=${vm.id}`)).toEqual([service.id]);
    const eth = await made(`${API}/interfaces/`, { virtual_machine: vm.id, name: 'eth0' });
    const fhrp = await made('/api/ipam/fhrp-groups/', { protocol: 'vrrp2', group_id: 7 });
    const assignment = await made('/api/ipam/fhrp-group-assignments/', { group: fhrp.id, interface_type: 'virtualization.vminterface', interface_id: eth.id, priority: 50 });
    expect(await ids('/api/ipam/fhrp-group-assignments/?virtual_machine=vlan01')).toEqual([assignment.id]);
    expect((await t.get(`${API}/interfaces/${eth.id}/`)).body.count_fhrp_groups).toBe(1);
  });
});
