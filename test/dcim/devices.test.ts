import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/dcim';
const names = (reply: { body: { results: { name: string }[] } }) => reply.body.results.map((r) => r.name);
let site: Body;
let role: Body;
let vendor: Body;
let switchType: Body;

beforeAll(async () => {
  t = await startServer();
  ({ body: site } = await t.post(`${API}/sites/`, { name: 'DC1', slug: 'dc1' }));
  ({ body: role } = await t.post(`${API}/device-roles/`, { name: 'Leaf', slug: 'leaf' }));
  ({ body: vendor } = await t.post(`${API}/manufacturers/`, { name: 'Arista', slug: 'arista' }));
  ({ body: switchType } = await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model: 'DCS-7050', slug: 'dcs-7050', u_height: 1 }));
});
afterAll(async () => {
  await t?.close();
});

describe('device types and their templates', () => {
  it('instantiate every template when a device is created, in a number of statements that does not grow with them', async () => {
    const type = (await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model: 'DCS-7280', slug: 'dcs-7280', u_height: 1, airflow: 'front-to-rear' })).body;
    const interfaces = Array.from({ length: 48 }, (_, i) => ({ device_type: type.id, name: `Ethernet${i + 1}`, type: '10gbase-x-sfpp' }));
    expect((await t.post(`${API}/interface-templates/`, interfaces)).status).toBe(201);
    await t.post(`${API}/power-port-templates/`, [
      { device_type: type.id, name: 'PSU1', maximum_draw: 500 },
      { device_type: type.id, name: 'PSU2', maximum_draw: 500 },
    ]);
    const small = (await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model: 'Small', slug: 'small' })).body;
    await t.post(`${API}/interface-templates/`, [{ device_type: small.id, name: 'eth0', type: '1000base-t' }]);
    await t.post(`${API}/power-port-templates/`, [{ device_type: small.id, name: 'PSU' }]);

    let big: Body;
    const bigCount = await t.countQueries(async () => {
      big = await t.post(`${API}/devices/`, { name: 'leaf1', device_type: type.id, role: role.id, site: site.id });
    });
    let little: Body;
    const smallCount = await t.countQueries(async () => {
      little = await t.post(`${API}/devices/`, { name: 'tiny1', device_type: small.id, role: role.id, site: site.id });
    });
    expect(big!.status, JSON.stringify(big!.body)).toBe(201);
    expect(little!.status).toBe(201);
    expect(bigCount).toBe(smallCount);
    expect(big!.body).toMatchObject({ interface_count: 48, power_port_count: 2, console_port_count: 0, airflow: { value: 'front-to-rear' } });
    const list = await t.get(`${API}/interfaces/?device_id=${big!.body.id}&limit=100`);
    expect(list.body.count).toBe(48);
    // Natural order: Ethernet2 before Ethernet10.
    expect(names(list).slice(0, 3)).toEqual(['Ethernet1', 'Ethernet2', 'Ethernet3']);
    expect(names(list)[9]).toBe('Ethernet10');
    const changes = await t.get(`/api/extras/object-changes/?changed_object_type=dcim.interface&related_object_id=${big!.body.id}&limit=1`);
    expect(changes.body.count).toBe(48);
  });
});

describe('devices in racks', () => {
  let rack: Body;
  const device = (body: object) => t.post(`${API}/devices/`, { device_type: switchType.id, role: role.id, site: site.id, ...body });

  beforeAll(async () => {
    ({ body: rack } = await t.post(`${API}/racks/`, { name: 'R1', site: site.id, u_height: 10 }));
  });

  it('need a rack for a face or position, a face for a position, half units, and free units that exist', async () => {
    expect((await device({ name: 'a', face: 'front' })).body).toEqual({ face: ['Cannot select a rack face without assigning a rack.'] });
    expect((await device({ name: 'a', position: 1 })).body).toEqual({ position: ['Cannot select a rack position without assigning a rack.'] });
    expect((await device({ name: 'a', rack: rack.id, position: 1 })).body).toEqual({ face: ['Must specify rack face when defining rack position.'] });
    expect((await device({ name: 'a', rack: rack.id, position: 1.3, face: 'front' })).body).toEqual({ position: ['Position must be in increments of 0.5 rack units.'] });
    expect((await device({ name: 'a', rack: rack.id, position: 1.25, face: 'front' })).body).toEqual({ position: ['Ensure that there are no more than 1 decimal places.'] });
    expect((await device({ name: 'a', rack: rack.id, position: 10.5, face: 'front' })).body).toEqual({
      position: ['U10.5 is already occupied or does not have sufficient space to accommodate this device type: DCS-7050 (1.0U)'],
    });
    const placed = await device({ name: 'r1-u5', rack: { name: 'R1', site: { name: 'DC1' } }, position: 5, face: 'front' });
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ rack: { id: rack.id }, position: 5, face: { value: 'front', label: 'Front' } });
    // A full-depth device takes both faces.
    expect((await device({ name: 'b', rack: rack.id, position: 5, face: 'rear' })).body).toEqual({
      position: ['U5.0 is already occupied or does not have sufficient space to accommodate this device type: DCS-7050 (1.0U)'],
    });
    const { body: shallow } = await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model: 'Patch panel', slug: 'patch-panel', is_full_depth: false });
    expect((await device({ name: 'c', device_type: shallow.id, rack: rack.id, position: 6, face: 'rear' })).status).toBe(201);
    expect((await device({ name: 'd', device_type: shallow.id, rack: rack.id, position: 6, face: 'front' })).status).toBe(201);
    expect((await device({ name: 'e', device_type: shallow.id, rack: rack.id, position: 6, face: 'rear' })).status).toBe(400);
    // Two devices of one write may not share units either.
    const both = await t.post(`${API}/devices/`, [
      { name: 'f', device_type: switchType.id, role: role.id, site: site.id, rack: rack.id, position: 8, face: 'front' },
      { name: 'g', device_type: switchType.id, role: role.id, site: site.id, rack: rack.id, position: 8, face: 'front' },
    ]);
    expect(both.status).toBe(400);
    expect(both.body[1]).toEqual({ position: ['U8.0 is already occupied or does not have sufficient space to accommodate this device type: DCS-7050 (1.0U)'] });
    expect((await t.get(`${API}/devices/?name=f`)).body.count).toBe(0);
    expect((await t.get(`${API}/racks/${rack.id}/`)).body.device_count).toBe(3);
  });

  it('refuse a rack of another site, a location the rack is not in, 0U and child types in positions', async () => {
    const { body: other } = await t.post(`${API}/sites/`, { name: 'DC2', slug: 'dc2' });
    expect((await device({ name: 'x', site: other.id, rack: rack.id })).body).toEqual({ rack: ['Rack R1 does not belong to site DC2.'] });
    const { body: zeroU } = await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model: 'PDU', slug: 'pdu', u_height: 0 });
    expect((await device({ name: 'x', device_type: zeroU.id, rack: rack.id, position: 2, face: 'front' })).body).toEqual({
      position: ['A 0U device type (PDU) cannot be assigned to a rack position.'],
    });
    expect((await device({ name: 'pdu1', device_type: zeroU.id, rack: rack.id })).status).toBe(201);
    const { body: blade } = await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model: 'Blade', slug: 'blade', u_height: 0, subdevice_role: 'child' });
    expect((await device({ name: 'x', device_type: blade.id, rack: rack.id, face: 'front' })).body).toEqual({
      face: ['Child device types cannot be assigned to a rack face. This is an attribute of the parent device.'],
    });
    expect((await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model: 'Tall blade', slug: 'tall-blade', u_height: 1, subdevice_role: 'child' })).body).toEqual({
      u_height: ['Child device types must be 0U.'],
    });
  });

  it('keep mounted devices in place when the rack shrinks or the type grows', async () => {
    const { body: small } = await t.post(`${API}/racks/`, { name: 'Shrinking', site: site.id, u_height: 10 });
    const { body: growing } = await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model: 'Growing', slug: 'growing' });
    await device({ name: 'top', device_type: growing.id, rack: small.id, position: 8, face: 'front' });
    await device({ name: 'below', device_type: growing.id, rack: small.id, position: 6, face: 'front' });
    expect((await t.request('PATCH', `${API}/racks/${small.id}/`, { body: { u_height: 7 } })).body).toEqual({
      u_height: ['Rack must be at least 8.0U tall to house currently installed devices.'],
    });
    expect((await t.request('PATCH', `${API}/racks/${small.id}/`, { body: { starting_unit: 7 } })).body).toEqual({
      starting_unit: ['Rack unit numbering must begin at 6.0 or less to house currently installed devices.'],
    });
    expect((await t.request('PATCH', `${API}/device-types/${growing.id}/`, { body: { u_height: 3 } })).body).toEqual({
      u_height: ['Device below in rack Shrinking does not have sufficient space to accommodate a height of 3.0U'],
    });
    expect((await t.request('PATCH', `${API}/device-types/${growing.id}/`, { body: { u_height: 2 } })).status).toBe(200);
    expect((await t.request('PATCH', `${API}/device-types/${growing.id}/`, { body: { u_height: 0 } })).body).toEqual({
      u_height: ['Unable to set 0U height: Found 2 instances already mounted within racks.'],
    });
  });

  it('let only one of several concurrent placements into the same units through', async () => {
    const { body: contended } = await t.post(`${API}/racks/`, { name: 'R-race', site: site.id, u_height: 4 });
    const replies = await Promise.all([0, 1, 2, 3].map((i) => device({ name: `race${i}`, rack: contended.id, position: 2, face: 'front' })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    expect((await t.get(`${API}/devices/?rack_id=${contended.id}`)).body.count).toBe(1);
  });

  it('identify a rack by attributes, refusing zero or several matches', async () => {
    await t.post(`${API}/locations/`, [{ name: 'Hall A', slug: 'hall-a', site: site.id }, { name: 'Hall B', slug: 'hall-b', site: site.id }]);
    await t.post(`${API}/racks/`, [
      { name: 'Twin', site: site.id, location: { slug: 'hall-a' } },
      { name: 'Twin', site: site.id, location: { slug: 'hall-b' } },
    ]);
    const several = await device({ name: 'y', rack: { name: 'Twin', site: { name: 'DC1' } } });
    expect(several.status).toBe(400);
    expect(several.body.rack[0]).toMatch(/^Multiple objects match the provided attributes/);
    const none = await device({ name: 'y', rack: { name: 'Nowhere', site: { name: 'DC1' } } });
    expect(none.body.rack[0]).toMatch(/^Related object not found using the provided attributes/);
    const one = await device({ name: 'y', rack: { name: 'Twin', location: { slug: 'hall-b' } } });
    expect(one.status).toBe(201);
    // The rack's location becomes the device's.
    expect(one.body.location).toMatchObject({ slug: 'hall-b' });
  });
});

describe('device display, naming and platforms', () => {
  it('shows the name, the asset tag, or the type and id', async () => {
    const { body: named } = await t.post(`${API}/devices/`, { name: 'core1', asset_tag: 'A-1', device_type: switchType.id, role: role.id, site: site.id });
    expect(named.display).toBe('core1 (A-1)');
    const { body: unnamed } = await t.post(`${API}/devices/`, { device_type: switchType.id, role: role.id, site: site.id });
    expect(unnamed.display).toBe(`Arista DCS-7050 (${unnamed.id})`);
    const { body: tagged } = await t.post(`${API}/devices/`, { device_type: switchType.id, role: role.id, site: site.id, asset_tag: 'A-2' });
    expect(tagged.display).toBe('Arista DCS-7050 (A-2)');
    // Names are unique per site, whatever their case.
    expect((await t.post(`${API}/devices/`, { name: 'CORE1', device_type: switchType.id, role: role.id, site: site.id })).body).toEqual({
      __all__: ['Device name must be unique per site.'],
    });
  });

  it('sorts names with numbers as people read them', async () => {
    const { body: sorted } = await t.post(`${API}/sites/`, { name: 'Sorted', slug: 'sorted' });
    await t.post(`${API}/devices/`, ['sw10', 'sw9', 'sw1', 'sw100'].map((name) => ({ name, device_type: switchType.id, role: role.id, site: sorted.id })));
    expect(names(await t.get(`${API}/devices/?site_id=${sorted.id}`))).toEqual(['sw1', 'sw9', 'sw10', 'sw100']);
    expect(names(await t.get(`${API}/devices/?site_id=${sorted.id}&ordering=-name`))).toEqual(['sw100', 'sw10', 'sw9', 'sw1']);
  });

  it('takes a platform of its type\'s manufacturer only', async () => {
    const { body: juniper } = await t.post(`${API}/manufacturers/`, { name: 'Juniper', slug: 'juniper' });
    const { body: junos } = await t.post(`${API}/platforms/`, { name: 'Junos', slug: 'junos', manufacturer: juniper.id });
    expect((await t.post(`${API}/devices/`, { name: 'p1', platform: junos.id, device_type: switchType.id, role: role.id, site: site.id })).body).toEqual({
      platform: ["The assigned platform is limited to Juniper device types, but this device's type belongs to Arista."],
    });
  });
});
