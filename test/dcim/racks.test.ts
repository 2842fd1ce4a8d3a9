import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/dcim';
const names = (reply: { body: { results: { name: string }[] } }) => reply.body.results.map((r) => r.name);
let site: { id: number };
let otherSite: { id: number };

beforeAll(async () => {
  t = await startServer();
  ({ body: site } = await t.post(`${API}/sites/`, { name: 'Rack site', slug: 'rack-site' }));
  ({ body: otherSite } = await t.post(`${API}/sites/`, { name: 'Other site', slug: 'other-site' }));
});
afterAll(async () => {
  await t?.close();
});

describe('racks', () => {
  it('round-trip their fields, show the facility id in display and sort names naturally', async () => {
    const { body: role } = await t.post(`${API}/rack-roles/`, { name: 'Compute', slug: 'compute', color: '2196f3' });
    const created = await t.post(`${API}/racks/`, [
      { name: 'R10', site: site.id, role: role.id, facility_id: 'F-10', width: 23, u_height: 48, status: 'planned' },
      { name: 'R2', site: { slug: 'rack-site' }, width: '19' },
      { name: 'R1', site: site.id, airflow: 'front-to-rear' },
    ]);
    expect(created.status).toBe(201);
    expect(created.body[0]).toMatchObject({
      display: 'R10 (F-10)', facility_id: 'F-10', width: { value: 23, label: '23 inches' }, u_height: 48, starting_unit: 1, desc_units: false,
      status: { value: 'planned', label: 'Planned' }, role: { id: role.id, slug: 'compute' }, form_factor: null, airflow: null, asset_tag: null,
    });
    expect(created.body[1]).toMatchObject({ display: 'R2', width: { value: 19, label: '19 inches' }, u_height: 42 });
    expect(created.body[2].airflow).toEqual({ value: 'front-to-rear', label: 'Front to rear' });
    expect(names(await t.get(`${API}/racks/?site_id=${site.id}`))).toEqual(['R1', 'R2', 'R10']);
    expect(names(await t.get(`${API}/racks/?site_id=${site.id}&ordering=-name`))).toEqual(['R10', 'R2', 'R1']);
    expect(names(await t.get(`${API}/racks/?width=23`))).toEqual(['R10']);
    expect(names(await t.get(`${API}/racks/?width__n=23&site_id=${site.id}`))).toEqual(['R1', 'R2']);
    expect((await t.get(`${API}/racks/?width=20`)).body).toEqual({ width: ['Select a valid choice. 20 is not one of the available choices.'] });
    expect(names(await t.get(`${API}/racks/?role=compute`))).toEqual(['R10']);
    expect((await t.get(`${API}/rack-roles/${role.id}/`)).body.rack_count).toBe(1);
    expect((await t.get(`${API}/sites/${site.id}/`)).body.rack_count).toBe(3);
  });

  it('refuse bad physical values and a location of another site, writing nothing', async () => {
    const post = (body: object) => t.post(`${API}/racks/`, { name: 'Bad', site: site.id, ...body });
    expect((await post({ width: 20 })).body).toEqual({ width: ['20 is not a valid choice.'] });
    expect((await post({ u_height: 0 })).body).toEqual({ u_height: ['Ensure this value is greater than or equal to 1.'] });
    expect((await post({ u_height: 101 })).body).toEqual({ u_height: ['Ensure this value is less than or equal to 100.'] });
    expect((await post({ outer_width: 600 })).body).toEqual({ __all__: ['Must specify a unit when setting an outer dimension'] });
    expect((await post({ max_weight: 800 })).body).toEqual({ __all__: ['Must specify a unit when setting a maximum weight'] });
    const { body: location } = await t.post(`${API}/locations/`, { name: 'Hall', slug: 'hall', site: otherSite.id });
    expect((await post({ location: location.id })).body).toEqual({ __all__: ['Assigned location must belong to parent site (Rack site).'] });
    expect((await t.get(`${API}/racks/?name=Bad`)).body.count).toBe(0);
    // Without outer dimensions the unit is dropped, as NetBox does.
    const ok = await post({ name: 'Unit only', outer_unit: 'mm' });
    expect(ok.body.outer_unit).toBeNull();
  });

  it('take the physical attributes of their rack type, also when the type changes later', async () => {
    const { body: vendor } = await t.post(`${API}/manufacturers/`, { name: 'APC', slug: 'apc' });
    const { body: type } = await t.post(`${API}/rack-types/`, {
      manufacturer: vendor.id, model: 'NetShelter SX 42U', slug: 'netshelter-sx-42u', form_factor: '4-post-cabinet', width: 19, u_height: 42,
      outer_width: 600, outer_depth: 1070, outer_unit: 'mm', max_weight: 1363, weight_unit: 'kg',
    });
    expect(type).toMatchObject({ display: 'NetShelter SX 42U', manufacturer: { id: vendor.id, slug: 'apc' }, form_factor: { value: '4-post-cabinet' } });
    const { body: rack } = await t.post(`${API}/racks/`, { name: 'Typed', site: site.id, rack_type: type.id, u_height: 10 });
    expect(rack).toMatchObject({ u_height: 42, outer_width: 600, outer_unit: { value: 'mm' }, form_factor: { value: '4-post-cabinet' } });

    const changed = await t.request('PATCH', `${API}/rack-types/${type.id}/`, { body: { u_height: 45 } });
    expect(changed.status).toBe(200);
    expect((await t.get(`${API}/racks/${rack.id}/`)).body.u_height).toBe(45);
    const changes = (await t.get(`/api/extras/object-changes/?changed_object_type=dcim.rack&changed_object_id=${rack.id}`)).body.results;
    expect(changes.map((c: { action: { value: string } }) => c.action.value)).toEqual(['update', 'create']);
    expect(names(await t.get(`${API}/racks/?manufacturer=apc`))).toEqual(['Typed']);
    expect((await t.post(`${API}/rack-types/`, { manufacturer: vendor.id, model: 'NetShelter SX 42U', slug: 'other' })).body).toEqual({
      __all__: ['Rack type with this Manufacturer and Model already exists.'],
    });
    // A type in use cannot be deleted.
    expect((await t.request('DELETE', `${API}/rack-types/${type.id}/`)).status).toBe(409);
  });
});

describe('rack reservations', () => {
  it('reserve existing, free units, locking the rack', async () => {
    const { body: rack } = await t.post(`${API}/racks/`, { name: 'Reserved', site: site.id, u_height: 10, facility_id: 'F-R' });
    const user = t.admin.id;
    const first = await t.post(`${API}/rack-reservations/`, { rack: rack.id, units: [1, 2, 3], user, description: 'Staging' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ display: 'Reservation for rack Reserved (F-R)', units: [1, 2, 3], status: { value: 'active' }, user: { id: user } });
    expect(Object.keys((await t.get(`${API}/rack-reservations/${first.body.id}/?brief=1`)).body)).toEqual(['id', 'url', 'display', 'status', 'user', 'description', 'units']);

    const post = (body: object) => t.post(`${API}/rack-reservations/`, { rack: rack.id, user, description: 'More', ...body });
    expect((await post({ units: [3, 4] })).body).toEqual({ units: ['The following units have already been reserved: 3'] });
    expect((await post({ units: [10, 11, 12] })).body).toEqual({ units: ['Invalid unit(s) for 10U rack: 11, 12'] });
    expect((await post({ units: [] })).body).toEqual({ units: ['This list may not be empty.'] });
    expect((await post({ units: ['x'] })).body).toEqual({ units: ['Ensure each unit is a whole number between 0 and 32767.'] });
    expect((await post({ units: [4], description: '' })).body).toEqual({ description: ['This field may not be blank.'] });
    // Its own units do not conflict with an update of itself.
    expect((await t.request('PATCH', `${API}/rack-reservations/${first.body.id}/`, { body: { units: [2, 3, 4] } })).body.units).toEqual([2, 3, 4]);

    expect((await t.get(`${API}/rack-reservations/?unit=4`)).body.count).toBe(1);
    expect((await t.get(`${API}/rack-reservations/?unit=1`)).body.count).toBe(0);
    expect((await t.get(`${API}/rack-reservations/?site=rack-site&user=admin`)).body.count).toBe(1);
    expect((await t.get(`${API}/rack-reservations/?q=reserved`)).body.count).toBe(1);
  });

  it('let only one of two concurrent reservations of the same unit through', async () => {
    const { body: rack } = await t.post(`${API}/racks/`, { name: 'Contended', site: site.id, u_height: 4 });
    const replies = await Promise.all(
      [0, 1, 2, 3].map((i) => t.post(`${API}/rack-reservations/`, { rack: rack.id, units: [2], user: t.admin.id, description: `Try ${i}` })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    expect((await t.get(`${API}/rack-reservations/?rack_id=${rack.id}`)).body.count).toBe(1);
  });
});

describe('rack elevations', () => {
  it('list the half units of a face top down, with the devices on them, paginated', async () => {
    const { body: rack } = await t.post(`${API}/racks/`, { name: 'Elevated', site: site.id, u_height: 4 });
    const { body: vendor } = await t.post(`${API}/manufacturers/`, { name: 'Elevation vendor', slug: 'elevation-vendor' });
    const { body: twoU } = await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model: '2U server', slug: '2u-server', u_height: 2 });
    const { body: shallow } = await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model: 'Panel', slug: 'panel', is_full_depth: false });
    const { body: role } = await t.post(`${API}/device-roles/`, { name: 'Server', slug: 'server', color: 'ff0000' });
    const common = { role: role.id, site: site.id, rack: rack.id };
    const { body: server } = await t.post(`${API}/devices/`, { name: 'srv', device_type: twoU.id, position: 2, face: 'front', ...common });
    const { body: panel } = await t.post(`${API}/devices/`, { name: 'panel', device_type: shallow.id, position: 1, face: 'rear', ...common });

    const front = await t.get(`${API}/racks/${rack.id}/elevation/`);
    expect(front.status).toBe(200);
    expect(front.body.count).toBe(8);
    expect(front.body.results.map((u: { name: string }) => u.name)).toEqual(['U4.5', 'U4', 'U3.5', 'U3', 'U2.5', 'U2', 'U1.5', 'U1']);
    const byName = new Map(front.body.results.map((u: { name: string }) => [u.name, u]));
    expect(byName.get('U3')).toEqual({
      id: 3, name: 'U3', face: { value: 'front', label: 'Front' }, occupied: true, display: 'U3',
      device: { id: server.id, url: expect.any(String), display: 'srv', name: 'srv', description: '' },
    });
    expect(byName.get('U4')).toMatchObject({ occupied: false, device: null });
    // A rear-only device does not show on the front.
    expect(byName.get('U1')).toMatchObject({ occupied: false, device: null });
    const rear = await t.get(`${API}/racks/${rack.id}/elevation/?face=rear&limit=2&offset=6`);
    expect(rear.body.results.map((u: { name: string; device: { id: number } | null }) => [u.name, u.device?.id ?? null])).toEqual([['U1.5', panel.id], ['U1', panel.id]]);
    expect(rear.body.previous).toContain('offset=4');
    expect(rear.body.next).toBeNull();
    const bottoms = await t.get(`${API}/racks/${rack.id}/elevation/?expand_devices=false&q=u2`);
    expect(bottoms.body.results.map((u: { name: string; height?: number }) => [u.name, u.height ?? null])).toEqual([['U2.5', null], ['U2', 2]]);

    expect((await t.get(`${API}/racks/${rack.id}/elevation/?face=side`)).body).toEqual({ face: ['"side" is not a valid choice.'] });
    expect((await t.get(`${API}/racks/${rack.id}/elevation/?render=pdf`)).body).toEqual({ render: ['"pdf" is not a valid choice.'] });
    expect((await t.get(`${API}/racks/99999999/elevation/`)).status).toBe(404);
    expect((await t.get(`${API}/racks/abc/elevation/`)).status).toBe(404);
    for (const query of ['exclude=abc', 'exclude=99999999999', 'expand_devices=maybe', 'render=svg&unit_width=-1', 'q=%00', 'face=front&face=%ff']) {
      const refused = await t.get(`${API}/racks/${rack.id}/elevation/?${query}`);
      expect(refused.status, query).toBe(400);
    }

    const svg = await t.get(`${API}/racks/${rack.id}/elevation/?render=svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.text).toMatch(/^<svg /);
    expect(svg.text).toContain('>srv</text>');
    expect(svg.text).toContain('fill="#ff0000"');
    expect(svg.text).not.toContain('>panel</text>');
    expect((await t.get(`${API}/racks/${rack.id}/elevation/?render=svg&face=rear`)).text).toContain('>panel</text>');
  });

  it('show devices the reader may not view as occupied units without a device', async () => {
    const { body: rack } = await t.post(`${API}/racks/`, { name: 'Private', site: site.id, u_height: 2 });
    const { body: vendor } = await t.post(`${API}/manufacturers/`, { name: 'Private vendor', slug: 'private-vendor' });
    const { body: type } = await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model: '1U', slug: 'private-1u' });
    const { body: role } = await t.post(`${API}/device-roles/`, { name: 'Private role', slug: 'private-role' });
    await t.post(`${API}/devices/`, { name: 'hidden', device_type: type.id, role: role.id, site: site.id, rack: rack.id, position: 1, face: 'front' });
    const viewer = await t.createUser('rack-viewer');
    const granted = await t.post('/api/users/permissions/', { name: 'racks only', object_types: ['dcim.rack'], actions: ['view'], users: [viewer.id] });
    expect(granted.status).toBe(201);
    const units = (await t.get(`${API}/racks/${rack.id}/elevation/`, { token: viewer.token })).body.results;
    expect(units.find((u: { name: string }) => u.name === 'U1')).toMatchObject({ occupied: true, device: null });
    expect((await t.get(`${API}/racks/${rack.id}/elevation/?render=svg`, { token: viewer.token })).text).not.toContain('hidden');
  });
});
