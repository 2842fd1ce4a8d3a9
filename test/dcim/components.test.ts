import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/dcim';
const names = (reply: { body: { results: { name: string }[] } }) => reply.body.results.map((r) => r.name);
let site: Body;
let role: Body;
let vendor: Body;

beforeAll(async () => {
  t = await startServer();
  ({ body: site } = await t.post(`${API}/sites/`, { name: 'Lab', slug: 'lab' }));
  ({ body: role } = await t.post(`${API}/device-roles/`, { name: 'Router', slug: 'router' }));
  ({ body: vendor } = await t.post(`${API}/manufacturers/`, { name: 'Juniper', slug: 'juniper' }));
});
afterAll(async () => {
  await t?.close();
});

const newType = async (model: string, extra: object = {}) =>
  (await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model, slug: model.toLowerCase().replace(/[^a-z0-9]+/g, '-'), ...extra })).body;
const newDevice = async (name: string, type: Body, extra: object = {}) => t.post(`${API}/devices/`, { name, device_type: type.id, role: role.id, site: site.id, ...extra });

describe('component templates', () => {
  it('belong to a device type or a module type, not both or neither, and refer within it', async () => {
    const type = await newType('MX204');
    const { body: moduleType } = await t.post(`${API}/module-types/`, { manufacturer: vendor.id, model: 'PIC' });
    expect((await t.post(`${API}/interface-templates/`, { name: 'et-0/0/0', type: '100gbase-x-qsfp28' })).body).toEqual({
      __all__: ['A component template must be associated with either a device type or a module type.'],
    });
    expect((await t.post(`${API}/interface-templates/`, { device_type: type.id, module_type: moduleType.id, name: 'x', type: 'virtual' })).body).toEqual({
      __all__: ['A component template cannot be associated with both a device type and a module type.'],
    });
    const { body: rear } = await t.post(`${API}/rear-port-templates/`, { module_type: moduleType.id, name: 'R{module}', type: 'lc', positions: 2 });
    expect((await t.post(`${API}/front-port-templates/`, { device_type: type.id, name: 'F1', type: 'lc', rear_port: rear.id })).body).toEqual({
      __all__: ['Rear port (R{module}) must belong to the same device type'],
    });
    expect((await t.post(`${API}/front-port-templates/`, { module_type: moduleType.id, name: 'F1', type: 'lc', rear_port: rear.id, rear_port_position: 3 })).body).toEqual({
      __all__: ['Invalid rear port position (3); rear port R{module} has only 2 positions'],
    });
    expect((await t.post(`${API}/interface-templates/`, { device_type: type.id, name: 'lo0', type: 'virtual', poe_mode: 'pse' })).body).toEqual({
      poe_mode: ['Virtual interfaces cannot have a PoE mode.'],
    });
    expect((await t.post(`${API}/device-bay-templates/`, { device_type: type.id, name: 'Bay 1' })).body).toEqual({
      __all__: ['Subdevice role of device type (MX204) must be set to "parent" to allow device bays.'],
    });
    const { body: made } = await t.post(`${API}/interface-templates/`, { device_type: type.id, name: 'et-0/0/0', type: '100gbase-x-qsfp28', label: 'uplink' });
    expect(made).toMatchObject({ display: 'et-0/0/0 (uplink)', device_type: { id: type.id }, module_type: null, type: { value: '100gbase-x-qsfp28' } });
    expect((await t.post(`${API}/interface-templates/`, { device_type: type.id, name: 'et-0/0/0', type: 'virtual' })).body).toEqual({
      __all__: ['Interface template with this Device type and Name already exists.'],
    });
    expect((await t.get(`${API}/device-types/${type.id}/`)).body.interface_template_count).toBe(1);
  });
});

describe('modules', () => {
  it('install into a bay of their device and bring their components, {module} replaced by the bay position', async () => {
    const chassis = await newType('MX480');
    await t.post(`${API}/module-bay-templates/`, [
      { device_type: chassis.id, name: 'FPC 0', position: '0' },
      { device_type: chassis.id, name: 'FPC 1', position: '1' },
    ]);
    const { body: card } = await t.post(`${API}/module-types/`, { manufacturer: vendor.id, model: 'MPC7E' });
    await t.post(`${API}/interface-templates/`, [
      { module_type: card.id, name: 'et-{module}/0/0', type: '100gbase-x-qsfp28' },
      { module_type: card.id, name: 'et-{module}/0/1', type: '100gbase-x-qsfp28' },
    ]);
    const { body: router } = await newDevice('mx1', chassis);
    expect(router.module_bay_count).toBe(2);
    const bays = (await t.get(`${API}/module-bays/?device_id=${router.id}`)).body.results;
    expect(bays.map((b: Body) => b.name)).toEqual(['FPC 0', 'FPC 1']);

    const installed = await t.post(`${API}/modules/`, { device: router.id, module_bay: bays[1].id, module_type: card.id, serial: 'X1' });
    expect(installed.status).toBe(201);
    expect(installed.body).toMatchObject({
      display: `FPC 1: MPC7E (${installed.body.id})`,
      module_bay: { id: bays[1].id, name: 'FPC 1' },
      module_type: { id: card.id, model: 'MPC7E' },
    });
    expect(Object.keys(installed.body.module_bay)).toEqual(['id', 'url', 'display_url', 'display', 'name']);
    const interfaces = (await t.get(`${API}/interfaces/?device_id=${router.id}`)).body.results;
    expect(interfaces.map((i: Body) => i.name)).toEqual(['et-1/0/0', 'et-1/0/1']);
    expect(interfaces[0].module).toMatchObject({ id: installed.body.id });
    expect((await t.get(`${API}/module-bays/${bays[1].id}/`)).body.installed_module).toMatchObject({ id: installed.body.id, serial: 'X1' });
    expect((await t.get(`${API}/modules/?module_type=MPC7E`)).body.count).toBe(1);

    // One module per bay; a bay of another device is refused.
    expect((await t.post(`${API}/modules/`, { device: router.id, module_bay: bays[1].id, module_type: card.id })).body).toEqual({
      module_bay: ['module with this module bay already exists.'],
    });
    const { body: other } = await newDevice('mx2', chassis);
    expect((await t.post(`${API}/modules/`, { device: other.id, module_bay: bays[0].id, module_type: card.id })).body).toEqual({
      __all__: ['Module must be installed within a module bay belonging to the assigned device (mx2).'],
    });
    // Removing the module removes its components.
    expect((await t.request('DELETE', `${API}/modules/${installed.body.id}/`)).status).toBe(204);
    expect((await t.get(`${API}/interfaces/?device_id=${router.id}`)).body.count).toBe(0);
  });
});

describe('virtual chassis', () => {
  it('number their members, name unnamed members after the chassis and keep the master a member', async () => {
    const type = await newType('EX4300');
    const { body: vc } = await t.post(`${API}/virtual-chassis/`, { name: 'stack1', domain: 'lab' });
    const { body: first } = await newDevice('ex1', type, { virtual_chassis: vc.id, vc_position: 1, vc_priority: 255 });
    const { body: second } = await newDevice('', type, { virtual_chassis: vc.id, vc_position: 2 });
    expect(second.display).toBe('stack1:2');
    expect((await newDevice('ex3', type, { virtual_chassis: vc.id })).body).toEqual({ vc_position: ['A device assigned to a virtual chassis must have its position defined.'] });
    expect((await newDevice('ex3', type, { virtual_chassis: vc.id, vc_position: 2 })).body).toEqual({
      __all__: ['Device with this Virtual chassis and Vc position already exists.'],
    });
    const { body: loner } = await newDevice('loner', type);
    expect((await t.request('PATCH', `${API}/virtual-chassis/${vc.id}/`, { body: { master: loner.id } })).body).toEqual({
      master: ['The selected master (loner) is not assigned to this virtual chassis.'],
    });
    const chassis = (await t.request('PATCH', `${API}/virtual-chassis/${vc.id}/`, { body: { master: first.id } })).body;
    expect(chassis).toMatchObject({ master: { id: first.id, name: 'ex1' }, member_count: 2 });
    expect(chassis.members.map((m: Body) => m.id)).toEqual([first.id, second.id]);
    expect((await t.request('PATCH', `${API}/devices/${first.id}/`, { body: { virtual_chassis: null } })).body).toEqual({
      virtual_chassis: ['Device cannot be removed from virtual chassis stack1 because it is currently designated as its master.'],
    });
    // A master cannot be deleted; deleting the chassis frees its members.
    expect((await t.request('DELETE', `${API}/devices/${first.id}/`)).status).toBe(409);
    await t.request('PATCH', `${API}/virtual-chassis/${vc.id}/`, { body: { master: null } });
    expect((await t.request('DELETE', `${API}/virtual-chassis/${vc.id}/`)).status).toBe(204);
    expect((await t.get(`${API}/devices/${second.id}/`)).body).toMatchObject({ virtual_chassis: null, vc_position: null });
  });
});

describe('device bays', () => {
  it('hold child devices, which follow their parent and name it in parent_device', async () => {
    const chassis = await newType('Blade chassis', { subdevice_role: 'parent' });
    const blade = await newType('Blade', { subdevice_role: 'child', u_height: 0 });
    await t.post(`${API}/device-bay-templates/`, [{ device_type: chassis.id, name: 'Slot 1' }, { device_type: chassis.id, name: 'Slot 2' }]);
    const { body: rack } = await t.post(`${API}/racks/`, { name: 'Blade rack', site: site.id });
    const { body: parent } = await newDevice('chassis1', chassis, { rack: rack.id, position: 10, face: 'front' });
    expect(parent.device_bay_count).toBe(2);
    const { body: child } = await newDevice('blade1', blade);
    const bays = (await t.get(`${API}/device-bays/?device_id=${parent.id}`)).body.results;
    const filled = await t.request('PATCH', `${API}/device-bays/${bays[0].id}/`, { body: { installed_device: child.id } });
    expect(filled.body.installed_device).toMatchObject({ id: child.id });
    expect((await t.request('PATCH', `${API}/device-bays/${bays[1].id}/`, { body: { installed_device: child.id } })).body).toEqual({
      installed_device: ['Cannot install the specified device; device is already installed in Slot 1.'],
    });
    expect((await t.request('PATCH', `${API}/device-bays/${bays[1].id}/`, { body: { installed_device: parent.id } })).body).toEqual({
      __all__: ['Cannot install a device into itself.'],
    });
    const seen = (await t.get(`${API}/devices/${child.id}/`)).body.parent_device;
    expect(seen).toMatchObject({ id: parent.id, name: 'chassis1', device_bay: { id: bays[0].id, name: 'Slot 1', device: { id: parent.id } } });
    expect((await t.get(`${API}/devices/?parent_device_id=${parent.id}`)).body.results.map((d: Body) => d.id)).toEqual([child.id]);

    // Moving the parent moves the child.
    const { body: elsewhere } = await t.post(`${API}/racks/`, { name: 'Other rack', site: site.id });
    await t.request('PATCH', `${API}/devices/${parent.id}/`, { body: { rack: elsewhere.id, position: 1, face: 'front' } });
    expect((await t.get(`${API}/devices/${child.id}/`)).body.rack).toMatchObject({ id: elsewhere.id });
    // A device of a type without bays takes none.
    expect((await t.post(`${API}/device-bays/`, { device: child.id, name: 'Nope' })).body).toEqual({
      __all__: ['This type of device (Blade) does not support device bays.'],
    });
  });
});

describe('interfaces', () => {
  let router: Body;
  beforeAll(async () => {
    ({ body: router } = await newDevice('r1', await newType('Router X')));
  });

  it('keep parents virtual and on the same device, LAGs physical, and sort by their numbers', async () => {
    const created = await t.post(`${API}/interfaces/`, [
      { device: router.id, name: 'xe-0/0/10', type: '10gbase-x-sfpp' },
      { device: router.id, name: 'xe-0/0/9', type: '10gbase-x-sfpp' },
      { device: router.id, name: 'ae0', type: 'lag' },
      { device: router.id, name: 'xe-0/0/2', type: '10gbase-x-sfpp' },
    ]);
    expect(created.status).toBe(201);
    const [ten, nine, lag] = created.body;
    expect(names(await t.get(`${API}/interfaces/?device_id=${router.id}`))).toEqual(['ae0', 'xe-0/0/2', 'xe-0/0/9', 'xe-0/0/10']);
    expect(names(await t.get(`${API}/interfaces/?device_id=${router.id}&ordering=-name`))).toEqual(['xe-0/0/10', 'xe-0/0/9', 'xe-0/0/2', 'ae0']);
    const member = await t.request('PATCH', `${API}/interfaces/${ten.id}/`, { body: { lag: lag.id } });
    expect(member.body.lag).toEqual({
      id: lag.id, url: expect.any(String), display_url: expect.any(String), display: 'ae0', device: expect.objectContaining({ id: router.id }), name: 'ae0', cable: null, _occupied: false,
    });
    expect((await t.post(`${API}/interfaces/`, { device: router.id, name: 'xe-0/0/9.0', type: '10gbase-x-sfpp', parent: nine.id })).body).toEqual({
      parent: ['Only virtual interfaces may be assigned to a parent interface.'],
    });
    expect((await t.post(`${API}/interfaces/`, { device: router.id, name: 'unit0', type: 'virtual', lag: lag.id })).body).toEqual({
      lag: ['Virtual interfaces cannot have a parent LAG interface.'],
    });
    const { body: other } = await newDevice('r2', await newType('Router Y'));
    expect((await t.post(`${API}/interfaces/`, { device: other.id, name: 'unit0', type: 'virtual', parent: nine.id })).body).toEqual({
      parent: ['The selected parent interface (xe-0/0/9) belongs to a different device (r1)'],
    });
    expect((await t.post(`${API}/interfaces/`, { device: router.id, name: 'wlan0', type: '1000base-t', rf_channel: '2.4g-1-2412-22' })).body).toEqual({
      rf_channel: ['Channel may be set only on wireless interfaces.'],
    });
    const { body: radio } = await t.post(`${API}/interfaces/`, { device: router.id, name: 'wlan0', type: 'ieee802.11ac', rf_channel: '5g-36-5180-20' });
    expect(radio).toMatchObject({ rf_channel_frequency: 5180, rf_channel_width: 20 });
    expect((await t.request('PATCH', `${API}/interfaces/${ten.id}/`, { body: { device: other.id } })).body).toEqual({
      device: ['Components cannot be moved to a different device.'],
    });
    expect((await t.get(`${API}/devices/${router.id}/`)).body.interface_count).toBe(5);
  });

  it('take MAC addresses, one of them primary', async () => {
    const { body: eth } = await t.post(`${API}/interfaces/`, { device: router.id, name: 'em0', type: '1000base-t' });
    const { body: mac } = await t.post(`${API}/mac-addresses/`, { mac_address: '00-1a-2b-3c-4d-5e', assigned_object_type: 'dcim.interface', assigned_object_id: eth.id });
    expect(mac).toMatchObject({ mac_address: '00:1A:2B:3C:4D:5E', display: '00:1A:2B:3C:4D:5E', assigned_object: { id: eth.id, name: 'em0' } });
    expect((await t.post(`${API}/mac-addresses/`, { mac_address: 'not-a-mac' })).body).toEqual({ mac_address: ['Invalid MAC address format: not-a-mac'] });
    const { body: loose } = await t.post(`${API}/mac-addresses/`, { mac_address: '001a.2b3c.4d5f' });
    expect(loose.mac_address).toBe('00:1A:2B:3C:4D:5F');
    const withPrimary = await t.request('PATCH', `${API}/interfaces/${eth.id}/`, { body: { primary_mac_address: mac.id } });
    expect(withPrimary.body).toMatchObject({ mac_address: '00:1A:2B:3C:4D:5E', primary_mac_address: { id: mac.id } });
    expect(withPrimary.body.mac_addresses.map((m: Body) => m.id)).toEqual([mac.id]);
    const { body: other } = await t.post(`${API}/interfaces/`, { device: router.id, name: 'em1', type: '1000base-t' });
    expect((await t.request('PATCH', `${API}/interfaces/${other.id}/`, { body: { primary_mac_address: mac.id } })).body).toEqual({
      primary_mac_address: ['MAC address 00:1A:2B:3C:4D:5E is assigned to a different interface (em0).'],
    });
    expect((await t.request('PATCH', `${API}/mac-addresses/${mac.id}/`, { body: { assigned_object_type: null, assigned_object_id: null } })).body).toEqual({
      __all__: ['Cannot unassign MAC Address while it is designated as the primary MAC for an object'],
    });
    expect((await t.get(`${API}/mac-addresses/?device_id=${router.id}`)).body.count).toBe(1);
    expect((await t.get(`${API}/mac-addresses/?mac_address=00:1a:2b:3c:4d:5e`)).body.count).toBe(1);
    expect((await t.get(`${API}/mac-addresses/?primary=true`)).body.results.map((m: Body) => m.id)).toEqual([mac.id]);
    expect((await t.get(`${API}/devices/?mac_address=00:1A:2B:3C:4D:5E`)).body.results.map((d: Body) => d.id)).toEqual([router.id]);
    expect((await t.get(`${API}/mac-addresses/?mac_address=zz`)).status).toBe(400);
  });
});

describe('inventory items', () => {
  it('nest within one device and point at its components', async () => {
    const type = await newType('Server');
    await t.post(`${API}/interface-templates/`, { device_type: type.id, name: 'eno1', type: '1000base-t' });
    const { body: templates } = await t.post(`${API}/inventory-item-templates/`, { device_type: type.id, name: 'Mainboard' });
    const interfaceTemplate = (await t.get(`${API}/interface-templates/?device_type_id=${type.id}`)).body.results[0];
    await t.post(`${API}/inventory-item-templates/`, {
      device_type: type.id, name: 'NIC', parent: templates.id, component_type: 'dcim.interfacetemplate', component_id: interfaceTemplate.id,
    });
    const { body: server } = await newDevice('srv1', type);
    // NetBox orders by parent id, roots (no parent) last.
    const items = (await t.get(`${API}/inventory-items/?device_id=${server.id}`)).body.results.reverse();
    expect(items.map((i: Body) => [i.name, i._depth])).toEqual([['Mainboard', 0], ['NIC', 1]]);
    const eno1 = (await t.get(`${API}/interfaces/?device_id=${server.id}`)).body.results[0];
    expect(items[1]).toMatchObject({ parent: { id: items[0].id }, component_type: 'dcim.interface', component_id: eno1.id, component: { id: eno1.id, name: 'eno1' } });
    const { body: other } = await newDevice('srv2', await newType('Other server'));
    expect((await t.post(`${API}/inventory-items/`, { device: other.id, name: 'Disk', parent: items[0].id })).body).toEqual({
      parent: ['Parent inventory item does not belong to the same device.'],
    });
    expect((await t.post(`${API}/inventory-items/`, { device: other.id, name: 'Disk', component_type: 'dcim.interface', component_id: eno1.id })).body).toEqual({
      device: ['Cannot assign inventory item to component on another device'],
    });
    // Items point at components, templates at templates.
    expect((await t.post(`${API}/inventory-items/`, { device: server.id, name: 'Odd', component_type: 'dcim.interfacetemplate', component_id: interfaceTemplate.id })).body).toEqual({
      component_type: ['Invalid content type: dcim.interfacetemplate'],
    });
    expect((await t.post(`${API}/inventory-item-templates/`, { device_type: type.id, name: 'Odd', component_type: 'dcim.interface', component_id: eno1.id })).body).toEqual({
      component_type: ['Invalid content type: dcim.interface'],
    });
  });
});

describe('a failing component creation', () => {
  it('rolls the device back with it', async () => {
    const type = await newType('Strict');
    await t.post(`${API}/interface-templates/`, { device_type: type.id, name: 'ge-0/0/0', type: '1000base-t' });
    // A required custom field without a default cannot be filled for the new interfaces.
    await t.post('/api/extras/custom-fields/', { name: 'circuit_ref', type: 'text', required: true, object_types: ['dcim.interface'] });
    const refused = await newDevice('strict1', type);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('circuit_ref');
    expect((await t.get(`${API}/devices/?name=strict1`)).body.count).toBe(0);
    await t.request('DELETE', `/api/extras/custom-fields/${(await t.get('/api/extras/custom-fields/?name=circuit_ref')).body.results[0].id}/`);
    expect((await newDevice('strict1', type)).status).toBe(201);
  });
});
