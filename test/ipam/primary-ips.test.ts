import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
let type: Body;
let role: Body;
let site: Body;

beforeAll(async () => {
  t = await startServer();
  ({ body: site } = await t.post('/api/dcim/sites/', { name: 'P1', slug: 'p1' }));
  const { body: vendor } = await t.post('/api/dcim/manufacturers/', { name: 'V', slug: 'v' });
  ({ body: type } = await t.post('/api/dcim/device-types/', { manufacturer: vendor.id, model: 'T', slug: 't' }));
  ({ body: role } = await t.post('/api/dcim/device-roles/', { name: 'R', slug: 'r' }));
});
afterAll(async () => {
  await t?.close();
});

const device = async (name: string, extra: object = {}) => (await t.post('/api/dcim/devices/', { name, device_type: type.id, role: role.id, site: site.id, ...extra })).body as Body;
const iface = async (dev: Body, name: string) => (await t.post('/api/dcim/interfaces/', { device: dev.id, name, type: '1000base-t' })).body as Body;
const ip = async (address: string, on?: Body, extra: object = {}) =>
  (await t.post('/api/ipam/ip-addresses/', { address, ...(on ? { assigned_object_type: 'dcim.interface', assigned_object_id: on.id } : {}), ...extra })).body as Body;

describe('device primary and out-of-band addresses', () => {
  it('are addresses of the family on one of the device\'s interfaces (or their NAT outside), read back and filtered', async () => {
    const r1 = await device('r1');
    const eth = await iface(r1, 'eth0');
    const v4 = await ip('192.0.2.10/24', eth);
    const v6 = await ip('2001:db8::10/64', eth);
    const elsewhere = await ip('192.0.2.20/24');
    const outside = await ip('203.0.113.10/24', undefined, { nat_inside: v4.id });

    expect((await t.request('PATCH', `/api/dcim/devices/${r1.id}/`, { body: { primary_ip4: v6.id } })).body).toEqual({ primary_ip4: ['2001:db8::10/64 is not an IPv4 address.'] });
    expect((await t.request('PATCH', `/api/dcim/devices/${r1.id}/`, { body: { primary_ip4: elsewhere.id } })).body).toEqual({
      primary_ip4: ['The specified IP address (192.0.2.20/24) is not assigned to this device.'],
    });
    const set = await t.request('PATCH', `/api/dcim/devices/${r1.id}/`, { body: { primary_ip4: v4.id, primary_ip6: v6.id, oob_ip: v4.id } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ primary_ip: { id: v6.id }, primary_ip4: { id: v4.id, address: '192.0.2.10/24' }, primary_ip6: { id: v6.id }, oob_ip: { id: v4.id } });
    // The NAT outside address of one of its addresses will do too.
    expect((await t.request('PATCH', `/api/dcim/devices/${r1.id}/`, { body: { primary_ip4: outside.id } })).status).toBe(200);

    const ids = async (query: string) => ((await t.get(`/api/dcim/devices/?${query}`)).body.results as Body[]).map((d) => d.id);
    await device('r2');
    expect(await ids('has_primary_ip=true')).toEqual([r1.id]);
    expect(await ids('has_oob_ip=true')).toEqual([r1.id]);
    expect((await ids('has_primary_ip=false')).includes(r1.id)).toBe(false);
    expect(await ids(`primary_ip6_id=${v6.id}`)).toEqual([r1.id]);
    expect(await ids('primary_ip4=203.0.113.10/24')).toEqual([r1.id]);

    // The address may not move while it is primary; deleting it clears the device's field.
    const r3 = await device('r3');
    const far = await iface(r3, 'eth0');
    expect((await t.request('PATCH', `/api/ipam/ip-addresses/${v6.id}/`, { body: { assigned_object_id: far.id } })).body).toEqual({
      assigned_object: ['Cannot reassign IP address while it is designated as the primary IP for the parent object'],
    });
    expect((await t.request('DELETE', `/api/ipam/ip-addresses/${v6.id}/`)).status).toBe(204);
    expect((await t.get(`/api/dcim/devices/${r1.id}/`)).body).toMatchObject({ primary_ip6: null, primary_ip: { id: outside.id } });
  });

  it('a virtual chassis master may use its members\' addresses', async () => {
    const { body: vc } = await t.post('/api/dcim/virtual-chassis/', { name: 'pair' });
    const master = await device('m1', { virtual_chassis: vc.id, vc_position: 1 });
    const member = await device('m2', { virtual_chassis: vc.id, vc_position: 2 });
    await t.request('PATCH', `/api/dcim/virtual-chassis/${vc.id}/`, { body: { master: master.id } });
    const address = await ip('198.51.100.2/24', await iface(member, 'eth0'));
    expect((await t.request('PATCH', `/api/dcim/devices/${master.id}/`, { body: { primary_ip4: address.id } })).status).toBe(200);
  });

  it('virtual device contexts take addresses of their interfaces', async () => {
    const r4 = await device('r4');
    const eth = await iface(r4, 'eth0');
    const { body: vdc } = await t.post('/api/dcim/virtual-device-contexts/', { name: 'ctx', device: r4.id, identifier: 1, status: 'active' });
    const address = await ip('198.51.100.50/24', eth);
    expect((await t.request('PATCH', `/api/dcim/virtual-device-contexts/${vdc.id}/`, { body: { primary_ip4: address.id } })).body).toEqual({
      primary_ip4: ['The specified IP address (198.51.100.50/24) is not assigned to this virtual device context.'],
    });
    await t.request('PATCH', `/api/dcim/interfaces/${eth.id}/`, { body: { vdcs: [vdc.id] } });
    const set = await t.request('PATCH', `/api/dcim/virtual-device-contexts/${vdc.id}/`, { body: { primary_ip4: address.id } });
    expect(set.body).toMatchObject({ primary_ip: { id: address.id }, primary_ip4: { id: address.id } });
  });
});
