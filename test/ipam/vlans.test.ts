import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/ipam';
let site: Body;
let otherSite: Body;
let region: Body;

beforeAll(async () => {
  t = await startServer();
  ({ body: region } = await t.post('/api/dcim/regions/', { name: 'Europe', slug: 'europe' }));
  ({ body: site } = await t.post('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1', region: region.id }));
  ({ body: otherSite } = await t.post('/api/dcim/sites/', { name: 'NYC1', slug: 'nyc1' }));
});
afterAll(async () => {
  await t?.close();
});

const vids = (reply: { body: unknown }) => (reply.body as Body[]).map((v) => v.vid as number);

describe('VLAN groups', () => {
  it('hold VID ranges (sorted, merged, within 1-4094), are scoped to an object, count and measure their VLANs', async () => {
    const made = await t.post(`${API}/vlan-groups/`, { name: 'Core', slug: 'core', scope_type: 'dcim.site', scope_id: site.id, vid_ranges: [[200, 299], [100, 150], [151, 160]] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ vid_ranges: [[100, 160], [200, 299]], scope_type: 'dcim.site', scope_id: site.id, scope: { id: site.id, name: 'AMS1' }, vlan_count: 0, utilization: '0.0' });
    expect((await t.post(`${API}/vlan-groups/`, { name: 'Bad', slug: 'bad', vid_ranges: [[0, 10]] })).body).toEqual({ vid_ranges: ['Starting VLAN ID in range (0) cannot be less than 1'] });
    expect((await t.post(`${API}/vlan-groups/`, { name: 'Bad', slug: 'bad', vid_ranges: [[10, 5000]] })).body).toEqual({ vid_ranges: ['Ending VLAN ID in range (5000) cannot exceed 4094'] });
    expect((await t.post(`${API}/vlan-groups/`, { name: 'Bad', slug: 'bad', scope_type: 'ipam.prefix', scope_id: 1 })).status).toBe(400);
    const global = await t.post(`${API}/vlan-groups/`, { name: 'Global', slug: 'global' });
    expect(global.body.vid_ranges).toEqual([[1, 4094]]);
    expect((await t.post(`${API}/vlan-groups/`, { name: 'Global', slug: 'global-2' })).body).toEqual({ __all__: ['VLAN group name must be unique.'] });
    expect((await t.get(`${API}/vlan-groups/?site=${site.id}`)).body.results.map((g: Body) => g.name)).toEqual(['Core']);
    expect((await t.get(`${API}/vlan-groups/?contains_vid=250`)).body.results.map((g: Body) => g.name)).toEqual(['Core', 'Global']);
    expect((await t.get(`${API}/vlan-groups/?contains_vid=170`)).body.results.map((g: Body) => g.name)).toEqual(['Global']);
  });
});

describe('VLANs', () => {
  it('take an ID of their group\'s ranges, are unique by group and ID or name, agree with a site-scoped group', async () => {
    const { body: group } = await t.post(`${API}/vlan-groups/`, { name: 'Access', slug: 'access', scope_type: 'dcim.site', scope_id: site.id, vid_ranges: [[10, 19]] });
    const made = await t.post(`${API}/vlans/`, { vid: 10, name: 'users', group: group.id, site: site.id });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ display: 'users (10)', display_name: 'users (10)', vid: 10, group: { id: group.id }, status: { value: 'active' }, prefix_count: 0 });
    expect((await t.post(`${API}/vlans/`, { vid: 20, name: 'x', group: group.id })).body).toEqual({ vid: ['VID must be in ranges 10-19 for VLANs in group Access'] });
    expect((await t.post(`${API}/vlans/`, { vid: 10, name: 'again', group: group.id })).status).toBe(400);
    expect((await t.post(`${API}/vlans/`, { vid: 11, name: 'users', group: group.id })).status).toBe(400);
    expect((await t.post(`${API}/vlans/`, { vid: 0, name: 'zero' })).body).toEqual({ vid: ['Ensure this value is greater than or equal to 1.'] });
    expect((await t.post(`${API}/vlans/`, { vid: 12, name: 'elsewhere', group: group.id, site: otherSite.id })).body).toEqual({
      __all__: ['VLAN is assigned to group Access (scope: AMS1); cannot also assign to site NYC1.'],
    });
    expect((await t.get(`${API}/vlan-groups/${group.id}/`)).body).toMatchObject({ vlan_count: 1, utilization: '10.0' });
    // Q-in-Q: customer VLANs sit in a service VLAN.
    const { body: svlan } = await t.post(`${API}/vlans/`, { vid: 100, name: 'svc', qinq_role: 'svlan' });
    expect((await t.post(`${API}/vlans/`, { vid: 101, name: 'cust', qinq_role: 'cvlan' })).body).toEqual({ qinq_svlan: ['A Q-in-Q customer VLAN must be assigned to a service VLAN.'] });
    const cust = await t.post(`${API}/vlans/`, { vid: 101, name: 'cust', qinq_role: 'cvlan', qinq_svlan: svlan.id });
    expect(cust.body.qinq_svlan).toEqual({ id: svlan.id, url: expect.any(String), display: 'svc (100)', vid: 100, name: 'svc', description: '' });
    expect((await t.get(`${API}/vlans/?qinq_svlan_vid=100`)).body.count).toBe(1);
  });

  it('available_at_site and available_on_device: global VLANs, the site\'s, and those of groups scoped around it', async () => {
    const { body: regional } = await t.post(`${API}/vlan-groups/`, { name: 'Regional', slug: 'regional', scope_type: 'dcim.region', scope_id: region.id, vid_ranges: [[500, 599]] });
    const { body: faraway } = await t.post(`${API}/vlan-groups/`, { name: 'Faraway', slug: 'faraway', scope_type: 'dcim.site', scope_id: otherSite.id, vid_ranges: [[600, 699]] });
    await t.post(`${API}/vlans/`, [
      { vid: 500, name: 'regional', group: regional.id }, { vid: 600, name: 'faraway', group: faraway.id },
      { vid: 700, name: 'global' }, { vid: 701, name: 'at-nyc', site: otherSite.id },
    ]);
    const names = async (query: string) => ((await t.get(`${API}/vlans/?${query}&limit=100`)).body.results as Body[]).map((v) => v.name as string).sort();
    const atAms = await names(`available_at_site=${site.id}`);
    expect(atAms).toEqual(expect.arrayContaining(['regional', 'global', 'users']));
    expect(atAms).not.toContain('faraway');
    expect(atAms).not.toContain('at-nyc');
    expect(await names(`available_at_site=${otherSite.id}`)).toEqual(expect.arrayContaining(['faraway', 'global', 'at-nyc']));
    const { body: vendor } = await t.post('/api/dcim/manufacturers/', { name: 'V', slug: 'v' });
    const { body: type } = await t.post('/api/dcim/device-types/', { manufacturer: vendor.id, model: 'T', slug: 't' });
    const { body: role } = await t.post('/api/dcim/device-roles/', { name: 'R', slug: 'r' });
    const { body: device } = await t.post('/api/dcim/devices/', { name: 'sw', device_type: type.id, role: role.id, site: site.id });
    expect(await names(`available_on_device=${device.id}`)).toEqual(atAms);
    expect((await t.get(`${API}/vlans/?available_at_site=999999`)).status).toBe(400);
  });
});

describe('available VLANs', () => {
  it('lists the lowest free IDs of the group\'s ranges and creates VLANs with them; parallel clients never share one', async () => {
    const { body: group } = await t.post(`${API}/vlan-groups/`, { name: 'Pool', slug: 'pool', vid_ranges: [[1, 3], [10, 30]] });
    await t.post(`${API}/vlans/`, { vid: 2, name: 'two', group: group.id });
    const listed = await t.get(`${API}/vlan-groups/${group.id}/available-vlans/?limit=3`);
    expect(listed.body).toEqual([1, 3, 10].map((vid) => ({ vid, group: expect.objectContaining({ id: group.id, name: 'Pool' }) })));
    const made = await t.post(`${API}/vlan-groups/${group.id}/available-vlans/`, { name: 'first' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ vid: 1, name: 'first', group: { id: group.id } });
    expect((await t.post(`${API}/vlan-groups/${group.id}/available-vlans/`, {})).body).toEqual({ name: ['This field is required.'] });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => t.post(`${API}/vlan-groups/${group.id}/available-vlans/`, { name: `vlan-${i}` })));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201));
    expect(new Set(replies.map((r) => r.body.vid)).size).toBe(20);
    expect(vids(await t.get(`${API}/vlan-groups/${group.id}/available-vlans/`))).toEqual([29, 30]);
    expect((await t.post(`${API}/vlan-groups/${group.id}/available-vlans/`, [{ name: 'a' }, { name: 'b' }, { name: 'c' }])).status).toBe(409);
  });
});

describe('prefixes and VLANs', () => {
  it('a prefix names its VLAN; VLANs count their prefixes; filters by VLAN group and VID', async () => {
    const { body: group } = await t.post(`${API}/vlan-groups/`, { name: 'Servers', slug: 'servers', vid_ranges: [[300, 399]] });
    const { body: vlan } = await t.post(`${API}/vlans/`, { vid: 300, name: 'servers', group: group.id });
    await t.post(`${API}/prefixes/`, { prefix: '10.40.0.0/24', vlan: vlan.id });
    expect((await t.get(`${API}/vlans/${vlan.id}/`)).body.prefix_count).toBe(1);
    expect((await t.get(`${API}/prefixes/?vlan_vid=300`)).body.count).toBe(1);
    expect((await t.get(`${API}/prefixes/?vlan_group=servers`)).body.count).toBe(1);
    expect((await t.get(`${API}/prefixes/?vlan_id=${vlan.id}`)).body.count).toBe(1);
  });
});

describe('prefix scope', () => {
  it('a prefix is scoped to a region, site group, site or location, and filters by where that is', async () => {
    const { body: child } = await t.post('/api/dcim/regions/', { name: 'Netherlands', slug: 'nl', parent: region.id });
    const { body: ams2 } = await t.post('/api/dcim/sites/', { name: 'AMS2', slug: 'ams2', region: child.id });
    const { body: hall } = await t.post('/api/dcim/locations/', { name: 'Hall A', slug: 'hall-a', site: ams2.id });
    const made = await t.post(`${API}/prefixes/`, [
      { prefix: '10.60.0.0/24', scope_type: 'dcim.site', scope_id: site.id },
      { prefix: '10.60.1.0/24', scope_type: 'dcim.location', scope_id: hall.id },
      { prefix: '10.60.2.0/24', scope_type: 'dcim.region', scope_id: child.id },
      { prefix: '10.60.3.0/24', scope_type: 'dcim.site', scope_id: otherSite.id },
    ]);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body[1]).toMatchObject({ scope_type: 'dcim.location', scope_id: hall.id, scope: { id: hall.id, name: 'Hall A' } });
    const within = async (query: string) => ((await t.get(`${API}/prefixes/?within=10.60.0.0/16&${query}`)).body.results as Body[]).map((p) => p.prefix);
    expect(await within(`site_id=${ams2.id}`)).toEqual(['10.60.1.0/24']);
    expect(await within('site=ams1')).toEqual(['10.60.0.0/24']);
    expect(await within(`location_id=${hall.id}`)).toEqual(['10.60.1.0/24']);
    expect(await within('region=europe')).toEqual(['10.60.0.0/24', '10.60.1.0/24', '10.60.2.0/24']);
    expect(await within(`region_id=${child.id}`)).toEqual(['10.60.1.0/24', '10.60.2.0/24']);
    expect(await within(`site_id__n=${site.id}`)).toEqual(['10.60.1.0/24', '10.60.2.0/24', '10.60.3.0/24']);
    expect((await t.post(`${API}/prefixes/`, { prefix: '10.61.0.0/24', scope_type: 'dcim.rack', scope_id: 1 })).status).toBe(400);
    expect((await t.get(`${API}/prefixes/?site=nowhere`)).status).toBe(400);
  });
});

describe('interface VLANs', () => {
  it('untagged and tagged VLANs of the device\'s site or global, tagged ones in tagged mode, a service VLAN on Q-in-Q; filtered both ways', async () => {
    const { body: vendor } = await t.post('/api/dcim/manufacturers/', { name: 'IV', slug: 'iv' });
    const { body: type } = await t.post('/api/dcim/device-types/', { manufacturer: vendor.id, model: 'IVT', slug: 'ivt' });
    const { body: role } = await t.post('/api/dcim/device-roles/', { name: 'IVR', slug: 'ivr' });
    const { body: device } = await t.post('/api/dcim/devices/', { name: 'leaf1', device_type: type.id, role: role.id, site: site.id });
    const vlans = (await t.post(`${API}/vlans/`, [
      { vid: 800, name: 'local', site: site.id }, { vid: 801, name: 'global' }, { vid: 802, name: 'remote', site: otherSite.id },
      { vid: 803, name: 'svc', qinq_role: 'svlan' },
    ])).body as Body[];
    const [local, global, remote, svc] = vlans;
    const { body: vrf } = await t.post(`${API}/vrfs/`, { name: 'Leaf', rd: '65099:1' });
    const made = await t.post('/api/dcim/interfaces/', {
      device: device.id, name: 'eth1', type: '1000base-t', mode: 'tagged', untagged_vlan: local.id, tagged_vlans: [global.id, local.id], vrf: vrf.id,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ mode: { value: 'tagged' }, untagged_vlan: { id: local.id, vid: 800 }, vrf: { id: vrf.id } });
    expect(made.body.tagged_vlans.map((v: Body) => v.vid).sort()).toEqual([800, 801]);
    const iface = (body: object) => t.post('/api/dcim/interfaces/', { device: device.id, type: '1000base-t', ...body });
    expect((await iface({ name: 'eth2', mode: 'access', untagged_vlan: remote.id })).body).toEqual({
      untagged_vlan: ["The untagged VLAN (remote (802)) must belong to the same site as the interface's parent device, or it must be global."],
    });
    expect((await iface({ name: 'eth2', mode: 'access', tagged_vlans: [global.id] })).body).toEqual({ tagged_vlans: ['Tagged VLANs may be assigned only to an interface in tagged mode.'] });
    expect((await iface({ name: 'eth2', mode: 'tagged', tagged_vlans: [remote.id] })).body).toEqual({
      tagged_vlans: ["VLAN remote (802) must belong to the same site as the interface's parent device, or it must be global."],
    });
    expect((await iface({ name: 'eth2', mode: 'access', qinq_svlan: svc.id })).body).toEqual({ qinq_svlan: ['Only Q-in-Q interfaces may specify a service VLAN.'] });
    expect((await iface({ name: 'eth2', mode: 'q-in-q', qinq_svlan: svc.id })).status).toBe(201);

    const names = async (query: string) => ((await t.get(`/api/dcim/interfaces/?device_id=${device.id}&${query}`)).body.results as Body[]).map((i) => i.name);
    expect(await names(`vlan_id=${global.id}`)).toEqual(['eth1']);
    expect(await names('vlan=800')).toEqual(['eth1']);
    expect(await names('vrf=65099:1')).toEqual(['eth1']);
    expect((await t.get(`${API}/vlans/?interface_id=${made.body.id}`)).body.results.map((v: Body) => v.vid).sort()).toEqual([800, 801]);
  });
});

describe('site ASNs', () => {
  it('sites list their AS numbers; ASNs count and filter by their sites and site groups', async () => {
    const { body: group } = await t.post('/api/dcim/site-groups/', { name: 'Edge', slug: 'edge' });
    const { body: edge } = await t.post('/api/dcim/sites/', { name: 'EDGE1', slug: 'edge1', group: group.id });
    const asns = (await t.post(`${API}/asns/`, [{ asn: 64600 }, { asn: 64601 }])).body as Body[];
    const patched = await t.request('PATCH', `/api/dcim/sites/${edge.id}/`, { body: { asns: asns.map((a) => a.id) } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.asns.map((a: Body) => a.asn)).toEqual([64600, 64601]);
    expect((await t.get(`${API}/asns/${asns[0].id}/`)).body.site_count).toBe(1);
    expect((await t.get(`/api/dcim/sites/?asn=64601`)).body.results.map((s: Body) => s.slug)).toEqual(['edge1']);
    expect((await t.get(`/api/dcim/sites/?asn_id=${asns[0].id}`)).body.count).toBe(1);
    expect((await t.get(`${API}/asns/?site=edge1`)).body.count).toBe(2);
    expect((await t.get(`${API}/asns/?site_group_id=${group.id}`)).body.count).toBe(2);
    expect((await t.get(`${API}/asns/?site=nowhere`)).status).toBe(400);
    expect((await t.get('/api/dcim/sites/?asn=x')).status).toBe(400);
  });
});
