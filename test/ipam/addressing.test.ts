import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/ipam';
const prefixes = async (query: string) => {
  const reply = await t.get(`${API}/prefixes/?${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body.results as Body[]).map((p) => p.prefix as string);
};
const addresses = async (query: string) => {
  const reply = await t.get(`${API}/ip-addresses/?${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body.results as Body[]).map((p) => p.address as string);
};

beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

describe('prefixes', () => {
  it('are stored as networks (host bits cleared), read with their family, and sorted as addresses, VRFs after the global table', async () => {
    const { body: red } = await t.post(`${API}/vrfs/`, { name: 'Red', rd: '65000:1' });
    expect(red.display).toBe('Red (65000:1)');
    const made = await t.post(`${API}/prefixes/`, { prefix: '10.1.2.3/24', status: 'container' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ prefix: '10.1.2.0/24', display: '10.1.2.0/24', family: { value: 4, label: 'IPv4' }, status: { value: 'container' } });
    await t.post(`${API}/prefixes/`, [
      { prefix: '9.0.0.0/8' }, { prefix: '10.0.0.0/8' }, { prefix: '10.1.0.0/16' }, { prefix: '2001:db8::/32' },
      { prefix: '2001:DB8:0:1::5/64' }, { prefix: '10.0.0.0/8', vrf: red.id },
    ]);
    const all = (await t.get(`${API}/prefixes/`)).body.results as Body[];
    expect(all.map((p) => `${p.vrf?.name ?? '-'} ${p.prefix}`)).toEqual([
      '- 9.0.0.0/8', '- 10.0.0.0/8', '- 10.1.0.0/16', '- 10.1.2.0/24', '- 2001:db8::/32', '- 2001:db8:0:1::/64', 'Red 10.0.0.0/8',
    ]);
    expect(all[4].family).toEqual({ value: 6, label: 'IPv6' });
    // As NetBox (F('vrf').asc(nulls_first=True)): by the VRF's key, so a VRF made later lists later whatever its name.
    const { body: blue } = await t.post(`${API}/vrfs/`, { name: 'Blue', rd: '65000:2' });
    const later = (await t.post(`${API}/prefixes/`, [{ prefix: '9.0.0.0/8', vrf: blue.id }, { prefix: '11.0.0.0/8', vrf: red.id }])).body as Body[];
    expect(((await t.get(`${API}/prefixes/`)).body.results as Body[]).map((p) => `${p.vrf?.name ?? '-'} ${p.prefix}`).slice(5)).toEqual([
      '- 2001:db8:0:1::/64', 'Red 10.0.0.0/8', 'Red 11.0.0.0/8', 'Blue 9.0.0.0/8',
    ]);
    expect((await t.request('DELETE', `${API}/prefixes/`, { body: later.map((p) => ({ id: p.id })) })).status).toBe(204);
    expect((await t.request('DELETE', `${API}/vrfs/${blue.id}/`)).status).toBe(204);
    // An index in that order serves a page.
    const { rows } = (await t.server.db.knex.raw(`select indexdef from pg_indexes where indexname = 'ipam_prefix_ordering'`)) as { rows: { indexdef: string }[] };
    expect(rows.map((r) => r.indexdef)).toEqual([expect.stringContaining('(vrf_id NULLS FIRST, prefix, id)')]);
    expect(Object.keys((await t.get(`${API}/prefixes/?brief=1&limit=1`)).body.results[0])).toEqual(['id', 'url', 'display', 'family', 'prefix', 'description', '_depth']);
    expect((await t.get(`${API}/vrfs/${red.id}/`)).body.prefix_count).toBe(1);
  });

  it('filter by containment, mask length, family, prefix and q; bad networks are a 400 naming the parameter', async () => {
    expect(await prefixes('within=10.0.0.0/8')).toEqual(['10.1.0.0/16', '10.1.2.0/24']);
    expect(await prefixes('within_include=10.0.0.0/8&vrf_id=null')).toEqual(['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24']);
    expect(await prefixes('contains=10.1.2.0/24')).toEqual(['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '10.0.0.0/8']);
    expect(await prefixes('contains=10.1.2.77')).toEqual(['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '10.0.0.0/8']);
    expect(await prefixes('mask_length=8')).toEqual(['9.0.0.0/8', '10.0.0.0/8', '10.0.0.0/8']);
    expect(await prefixes('mask_length__gte=24&family=4')).toEqual(['10.1.2.0/24']);
    expect(await prefixes('family=6')).toEqual(['2001:db8::/32', '2001:db8:0:1::/64']);
    expect(await prefixes('prefix=10.1.2.9/24')).toEqual(['10.1.2.0/24']);
    expect(await prefixes('vrf=65000:1')).toEqual(['10.0.0.0/8']);
    expect(await prefixes('q=2001:db8:0:1::1')).toEqual(['2001:db8::/32', '2001:db8:0:1::/64']);
    expect(await prefixes('within=2001:db8::/32')).toEqual(['2001:db8:0:1::/64']);
    for (const bad of ['within=10.0.0.0/33', 'contains=banana', 'prefix=10.1', 'family=5', 'mask_length=x']) {
      const reply = await t.get(`${API}/prefixes/?${bad}`);
      expect(reply.status, bad).toBe(400);
      expect(Object.keys(reply.body), bad).toEqual([bad.split('=')[0]]);
    }
  });

  it('refuse /0, bad values and duplicates in the global table or an enforcing VRF, nothing written', async () => {
    expect((await t.post(`${API}/prefixes/`, { prefix: '0.0.0.0/0' })).body).toEqual({ prefix: ['Cannot create prefix with /0 mask.'] });
    expect((await t.post(`${API}/prefixes/`, { prefix: '10.0.0.256/24' })).status).toBe(400);
    expect((await t.post(`${API}/prefixes/`, { prefix: '10.1.2.200/24' })).body).toEqual({ prefix: ['Duplicate prefix found in global table: 10.1.2.0/24'] });
    const { body: blue } = await t.post(`${API}/vrfs/`, { name: 'Blue' });
    const twice = await t.post(`${API}/prefixes/`, [{ prefix: '192.0.2.0/24', vrf: blue.id }, { prefix: '192.0.2.0/24', vrf: blue.id }]);
    expect(twice.body).toEqual([{}, { prefix: ['Duplicate prefix found in VRF Blue: 192.0.2.0/24'] }]);
    expect(await prefixes(`vrf_id=${blue.id}`)).toEqual([]);
    await t.request('PATCH', `${API}/vrfs/${blue.id}/`, { body: { enforce_unique: false } });
    expect((await t.post(`${API}/prefixes/`, [{ prefix: '192.0.2.0/24', vrf: blue.id }, { prefix: '192.0.2.0/24', vrf: blue.id }])).status).toBe(201);
  });
});

describe('IP addresses', () => {
  it('keep their mask (a host without one is /32 or /128), refuse duplicates by host unless both roles allow it', async () => {
    const { body: one } = await t.post(`${API}/ip-addresses/`, { address: '192.0.2.1', dns_name: 'Router.Example.COM' });
    expect(one).toMatchObject({ address: '192.0.2.1/32', family: { value: 4, label: 'IPv4' }, dns_name: 'router.example.com', role: null });
    expect((await t.post(`${API}/ip-addresses/`, { address: '192.0.2.1/24' })).body).toEqual({ address: ['Duplicate IP address found in global table: 192.0.2.1/32'] });
    const vip = await t.post(`${API}/ip-addresses/`, [{ address: '192.0.2.10/24', role: 'vip' }, { address: '192.0.2.10/24', role: 'vrrp' }]);
    expect(vip.status, JSON.stringify(vip.body)).toBe(201);
    expect((await t.post(`${API}/ip-addresses/`, { address: '192.0.2.10/24' })).body).toEqual({ address: ['Duplicate IP address found in global table: 192.0.2.10/24'] });
    const v6 = await t.post(`${API}/ip-addresses/`, { address: '2001:db8::1', status: 'slaac' });
    expect(v6.body).toMatchObject({ address: '2001:db8::1/128', family: { value: 6 } });
    expect((await t.post(`${API}/ip-addresses/`, { address: '192.0.2.99/24', status: 'slaac' })).body).toEqual({ status: ['Only IPv6 addresses can be assigned SLAAC status'] });
    expect((await t.post(`${API}/ip-addresses/`, { address: '192.0.2.98/24', dns_name: 'bad name' })).body).toEqual({
      dns_name: ['Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names'],
    });
    expect((await t.post(`${API}/ip-addresses/`, { address: '0.0.0.0/0' })).body).toEqual({ address: ['Cannot create IP address with /0 mask.'] });
  });

  it('on an interface: not a network ID or broadcast address; read with the interface nested', async () => {
    const { body: site } = await t.post('/api/dcim/sites/', { name: 'DC1', slug: 'dc1' });
    const { body: vendor } = await t.post('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
    const { body: type } = await t.post('/api/dcim/device-types/', { manufacturer: vendor.id, model: 'R1', slug: 'r1' });
    const { body: role } = await t.post('/api/dcim/device-roles/', { name: 'Router', slug: 'router' });
    const { body: device } = await t.post('/api/dcim/devices/', { name: 'r1', device_type: type.id, role: role.id, site: site.id });
    const { body: eth } = await t.post('/api/dcim/interfaces/', { device: device.id, name: 'eth0', type: '1000base-t' });
    const on = (address: string) => ({ address, assigned_object_type: 'dcim.interface', assigned_object_id: eth.id });
    expect((await t.post(`${API}/ip-addresses/`, on('198.51.100.0/24'))).body).toEqual({ address: ['198.51.100.0/24 is a network ID, which may not be assigned to an interface.'] });
    expect((await t.post(`${API}/ip-addresses/`, on('198.51.100.255/24'))).body).toEqual({ address: ['198.51.100.255/24 is a broadcast address, which may not be assigned to an interface.'] });
    expect((await t.post(`${API}/ip-addresses/`, on('198.51.100.0/31'))).status).toBe(201);
    const { body: ip } = await t.post(`${API}/ip-addresses/`, on('198.51.100.7/24'));
    expect(ip).toMatchObject({ assigned_object_type: 'dcim.interface', assigned_object_id: eth.id });
    // Spec §2.3: the interface's device carries `display_name`, the interface its `cable` and `connection_status`.
    expect(Object.keys(ip.assigned_object)).toEqual(['id', 'url', 'display', 'device', 'name', 'description', 'cable', '_occupied', 'connection_status']);
    expect(ip.assigned_object).toMatchObject({ id: eth.id, url: `${t.base}/api/dcim/interfaces/${eth.id}/`, name: 'eth0', cable: null, connection_status: null });
    expect(ip.assigned_object.device).toEqual({
      id: device.id, url: `${t.base}/api/dcim/devices/${device.id}/`, display: 'r1', name: 'r1', description: '', display_name: 'r1',
    });
    // A device without a name reads its display rule under both keys.
    const { body: unnamed } = await t.post('/api/dcim/devices/', { device_type: type.id, role: role.id, site: site.id });
    expect(unnamed).toMatchObject({ name: null, display: `Acme R1 (${unnamed.id})`, display_name: `Acme R1 (${unnamed.id})` });
    // PostgreSQL's (and so NetBox's) inet order: the network part, then the shorter mask.
    expect(await addresses('parent=198.51.100.0/24')).toEqual(['198.51.100.7/24', '198.51.100.0/31']);
    expect(await addresses('address=198.51.100.7')).toEqual(['198.51.100.7/24']);
    expect(await addresses('address=198.51.100.7/25')).toEqual([]);
    expect(await addresses('mask_length=31')).toEqual(['198.51.100.0/31']);
    // Deleting the interface deletes its addresses, as NetBox does.
    await t.request('DELETE', `/api/dcim/interfaces/${eth.id}/`);
    expect(await addresses('parent=198.51.100.0/24')).toEqual([]);
  });

  it('NAT: nat_inside is written, nat_outside read back', async () => {
    const { body: inside } = await t.post(`${API}/ip-addresses/`, { address: '10.9.9.9/24' });
    const { body: outside } = await t.post(`${API}/ip-addresses/`, { address: '203.0.113.9/24', nat_inside: inside.id });
    expect(outside.nat_inside).toEqual({ id: inside.id, url: expect.any(String), display_url: expect.any(String), display: '10.9.9.9/24', family: { value: 4, label: 'IPv4' }, address: '10.9.9.9/24' });
    expect((await t.get(`${API}/ip-addresses/${inside.id}/`)).body.nat_outside.map((o: Body) => o.address)).toEqual(['203.0.113.9/24']);
  });
});

describe('aggregates, ranges and AS numbers', () => {
  it('aggregates do not overlap; RIRs count them', async () => {
    const { body: rir } = await t.post(`${API}/rirs/`, { name: 'RFC 1918', slug: 'rfc-1918', is_private: true });
    expect((await t.post(`${API}/aggregates/`, { prefix: '172.16.0.0/12', rir: rir.id })).status).toBe(201);
    expect((await t.post(`${API}/aggregates/`, { prefix: '172.16.5.0/24', rir: rir.id })).body).toEqual({
      prefix: ['Aggregates cannot overlap. 172.16.5.0/24 is already covered by an existing aggregate (172.16.0.0/12).'],
    });
    expect((await t.post(`${API}/aggregates/`, { prefix: '172.0.0.0/8', rir: rir.id })).body).toEqual({
      prefix: ['Prefixes cannot overlap aggregates. 172.0.0.0/8 covers an existing aggregate (172.16.0.0/12).'],
    });
    expect((await t.get(`${API}/rirs/${rir.id}/`)).body.aggregate_count).toBe(1);
    expect((await t.get(`${API}/aggregates/?prefix=172.16.0.0/12`)).body.count).toBe(1);
  });

  it('IP ranges: display, size, order of bounds, no overlap; a populated range takes no new address', async () => {
    const made = await t.post(`${API}/ip-ranges/`, { start_address: '192.168.10.10/24', end_address: '192.168.10.20/24' });
    expect(made.body).toMatchObject({ display: '192.168.10.10-20/24', size: 11, family: { value: 4 } });
    expect((await t.post(`${API}/ip-ranges/`, { start_address: '192.168.10.30/24', end_address: '192.168.10.25/24' })).body).toEqual({
      end_address: ['Ending address must be greater than the starting address (192.168.10.30/24)'],
    });
    expect((await t.post(`${API}/ip-ranges/`, { start_address: '192.168.10.30/24', end_address: '192.168.10.40/25' })).body).toEqual({
      end_address: ['Starting and ending IP address masks must match'],
    });
    expect((await t.post(`${API}/ip-ranges/`, { start_address: '192.168.10.15/24', end_address: '192.168.10.40/24' })).body).toEqual({
      __all__: ['Defined addresses overlap with range 192.168.10.10-20/24 in VRF None'],
    });
    const v6 = await t.post(`${API}/ip-ranges/`, { start_address: '2001:db8::10/64', end_address: '2001:db8::1f/64' });
    expect(v6.body).toMatchObject({ display: '2001:db8::10-1f/64', size: 16 });
    await t.request('PATCH', `${API}/ip-ranges/${made.body.id}/`, { body: { mark_populated: true } });
    expect((await t.post(`${API}/ip-addresses/`, { address: '192.168.10.15/24' })).body).toEqual({
      address: ['Cannot create IP address 192.168.10.15/24 inside range 192.168.10.10-192.168.10.20.'],
    });
  });

  it('AS numbers up to 32 bits, shown in asdot too; ranges count theirs', async () => {
    const { body: rir } = await t.post(`${API}/rirs/`, { name: 'ARIN', slug: 'arin' });
    const { body: big } = await t.post(`${API}/asns/`, { asn: 4200000000, rir: rir.id });
    expect(big).toMatchObject({ asn: 4200000000, display: 'AS4200000000 (64086.59904)' });
    await t.post(`${API}/asns/`, [{ asn: 65001, rir: rir.id }, { asn: 65002, rir: rir.id }]);
    expect((await t.post(`${API}/asns/`, { asn: 4294967296 })).body).toEqual({ asn: ['Ensure this value is less than or equal to 4294967295.'] });
    const { body: range } = await t.post(`${API}/asn-ranges/`, { name: 'Private', slug: 'private', rir: rir.id, start: 64512, end: 65534 });
    expect(range).toMatchObject({ display: 'Private (64512-65534)', asn_count: 2 });
    expect((await t.post(`${API}/asn-ranges/`, { name: 'Bad', slug: 'bad', rir: rir.id, start: 10, end: 5 })).body).toEqual({
      __all__: ['Starting ASN (10) must be lower than ending ASN (5).'],
    });
    expect((await t.get(`${API}/asns/?asn=4200000000`)).body.count).toBe(1);
    expect((await t.get(`${API}/asns/?asn__gte=65002`)).body.count).toBe(2);
  });
});

describe('filters NetBox defines by method', () => {
  it('addresses by assignment: interface, device (with its virtual chassis members when master), assigned', async () => {
    const { body: site } = await t.post('/api/dcim/sites/', { name: 'DC2', slug: 'dc2' });
    const { body: vendor } = await t.post('/api/dcim/manufacturers/', { name: 'Stacker', slug: 'stacker' });
    const { body: type } = await t.post('/api/dcim/device-types/', { manufacturer: vendor.id, model: 'S1', slug: 's1' });
    const { body: role } = await t.post('/api/dcim/device-roles/', { name: 'Switch', slug: 'switch' });
    const { body: vc } = await t.post('/api/dcim/virtual-chassis/', { name: 'stack' });
    const device = async (name: string, position: number) =>
      (await t.post('/api/dcim/devices/', { name, device_type: type.id, role: role.id, site: site.id, virtual_chassis: vc.id, vc_position: position })).body as Body;
    const [sw1, sw2] = [await device('sw1', 1), await device('sw2', 2)];
    await t.request('PATCH', `/api/dcim/virtual-chassis/${vc.id}/`, { body: { master: sw1.id } });
    const iface = async (dev: Body, name: string) => (await t.post('/api/dcim/interfaces/', { device: dev.id, name, type: '1000base-t' })).body as Body;
    const [a, b] = [await iface(sw1, 'ge-0/0/0'), await iface(sw2, 'ge-1/0/0')];
    const on = (address: string, i: Body) => ({ address, assigned_object_type: 'dcim.interface', assigned_object_id: i.id });
    await t.post(`${API}/ip-addresses/`, [on('100.64.0.1/24', a), on('100.64.0.2/24', b), { address: '100.64.0.3/24' }]);
    expect(await addresses(`interface_id=${a.id}`)).toEqual(['100.64.0.1/24']);
    expect(await addresses('interface=ge-1/0/0')).toEqual(['100.64.0.2/24']);
    expect(await addresses(`device_id=${sw1.id}`)).toEqual(['100.64.0.1/24', '100.64.0.2/24']);
    expect(await addresses('device=sw2')).toEqual(['100.64.0.2/24']);
    expect(await addresses('parent=100.64.0.0/24&assigned=false')).toEqual(['100.64.0.3/24']);
    expect(await addresses('parent=100.64.0.0/24&assigned_to_interface=true')).toEqual(['100.64.0.1/24', '100.64.0.2/24']);
    expect((await t.get(`${API}/ip-addresses/?interface_id=999999`)).status).toBe(400);
  });

  it('present_in_vrf: the VRF\'s own objects and those of VRFs exporting what it imports', async () => {
    const { body: rt } = await t.post(`${API}/route-targets/`, { name: '65000:100' });
    const { body: hub } = await t.post(`${API}/vrfs/`, { name: 'Hub', rd: '65000:100', import_targets: [rt.id] });
    const { body: spoke } = await t.post(`${API}/vrfs/`, { name: 'Spoke', rd: '65000:101', export_targets: [rt.id] });
    const { body: other } = await t.post(`${API}/vrfs/`, { name: 'Other', rd: '65000:102' });
    await t.post(`${API}/prefixes/`, [{ prefix: '172.20.0.0/24', vrf: hub.id }, { prefix: '172.20.1.0/24', vrf: spoke.id }, { prefix: '172.20.2.0/24', vrf: other.id }]);
    expect(await prefixes(`present_in_vrf_id=${hub.id}`)).toEqual(['172.20.0.0/24', '172.20.1.0/24']);
    expect(await prefixes('present_in_vrf=65000:101')).toEqual(['172.20.1.0/24']);
    expect((await t.get(`${API}/route-targets/?importing_vrf_id=${hub.id}`)).body.count).toBe(1);
    expect((await t.get(`${API}/route-targets/?exporting_vrf=65000:100`)).body.count).toBe(0);
    expect((await t.get(`${API}/prefixes/?present_in_vrf=nope`)).status).toBe(400);
  });

  it('ranges by bound, by an address they hold, by the prefix holding them, by size', async () => {
    await t.post(`${API}/ip-ranges/`, [
      { start_address: '10.50.0.10/24', end_address: '10.50.0.19/24' },
      { start_address: '10.50.1.1/24', end_address: '10.50.1.100/24' },
    ]);
    const ranges = async (query: string) => ((await t.get(`${API}/ip-ranges/?${query}`)).body.results as Body[]).map((r) => r.display as string);
    expect(await ranges('contains=10.50.0.15')).toEqual(['10.50.0.10-19/24']);
    expect(await ranges('parent=10.50.0.0/16')).toEqual(['10.50.0.10-19/24', '10.50.1.1-100/24']);
    expect(await ranges('parent=10.50.0.0/16&size__gt=10')).toEqual(['10.50.1.1-100/24']);
    expect(await ranges('size=10')).toEqual(['10.50.0.10-19/24']);
    expect(await ranges('start_address=10.50.1.1')).toEqual(['10.50.1.1-100/24']);
    expect((await t.get(`${API}/ip-ranges/?contains=10.50`)).status).toBe(400);
  });
});

describe('bad filter values', () => {
  it('are a 400 naming the parameter', async () => {
    for (const query of ['route-targets/?exporting_vrf_id__n=false', 'route-targets/?importing_vrf=nope', 'ip-addresses/?device_id=x', 'ip-ranges/?size__gte=x', 'prefixes/?present_in_vrf_id=x']) {
      const reply = await t.get(`${API}/${query}`);
      expect(reply.status, query).toBe(400);
      expect(Object.keys(reply.body), query).toEqual([query.split('?')[1].split('=')[0]]);
    }
  });
});

describe('prefix hierarchy', () => {
  it('_depth and children count the prefixes around and inside each one, in its VRF, and filter', async () => {
    const { body: vrf } = await t.post(`${API}/vrfs/`, { name: 'Tree', rd: '65000:900' });
    await t.post(`${API}/prefixes/`, ['10.99.0.0/16', '10.99.1.0/24', '10.99.1.0/25', '10.99.1.128/25', '10.99.2.0/24'].map((prefix) => ({ prefix, vrf: vrf.id })));
    await t.post(`${API}/prefixes/`, { prefix: '10.99.1.0/26' });
    const tree = ((await t.get(`${API}/prefixes/?vrf_id=${vrf.id}`)).body.results as Body[]).map((p) => [p.prefix, p._depth, p.children]);
    expect(tree).toEqual([
      ['10.99.0.0/16', 0, 4], ['10.99.1.0/24', 1, 2], ['10.99.1.0/25', 2, 0], ['10.99.1.128/25', 2, 0], ['10.99.2.0/24', 1, 0],
    ]);
    expect(await prefixes(`vrf_id=${vrf.id}&depth=2`)).toEqual(['10.99.1.0/25', '10.99.1.128/25']);
    expect(await prefixes(`vrf_id=${vrf.id}&children__gte=1`)).toEqual(['10.99.0.0/16', '10.99.1.0/24']);
    expect(Object.keys((await t.get(`${API}/prefixes/?brief=1&limit=1`)).body.results[0])).toEqual(['id', 'url', 'display', 'family', 'prefix', 'description', '_depth']);
  });
});
