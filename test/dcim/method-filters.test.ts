import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

// The dcim filters NetBox defines by method rather than by field, each against data that tells its cases apart.
let t: TestServer;
const API = '/api/dcim';
let site: Body;
let role: Body;
let juniper: Body;
let arista: Body;

const ids = async (path: string) => {
  const reply = await t.get(path);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body.results as Body[]).map((r) => r.id as number).sort((a, b) => a - b);
};
const rejects = async (path: string, param: string) => {
  const reply = await t.get(path);
  expect(reply.status).toBe(400);
  expect(Object.keys(reply.body)).toEqual([param]);
};
const newType = async (vendor: Body, model: string, extra: object = {}) =>
  (await t.post(`${API}/device-types/`, { manufacturer: vendor.id, model, slug: model.toLowerCase().replace(/[^a-z0-9]+/g, '-'), ...extra })).body as Body;
const newDevice = async (name: string, type: Body, extra: object = {}) =>
  (await t.post(`${API}/devices/`, { name, device_type: type.id, role: role.id, site: site.id, ...extra })).body as Body;

beforeAll(async () => {
  t = await startServer();
  ({ body: site } = await t.post(`${API}/sites/`, { name: 'Lab', slug: 'lab' }));
  ({ body: role } = await t.post(`${API}/device-roles/`, { name: 'Switch', slug: 'switch' }));
  ({ body: juniper } = await t.post(`${API}/manufacturers/`, { name: 'Juniper', slug: 'juniper' }));
  ({ body: arista } = await t.post(`${API}/manufacturers/`, { name: 'Arista', slug: 'arista' }));
});
afterAll(async () => {
  await t?.close();
});

describe('device and module types', () => {
  it('filter by whether they have templates of a kind', async () => {
    const bare = await newType(juniper, 'Bare');
    const ports = await newType(juniper, 'Ports');
    const chassis = await newType(juniper, 'Chassis', { subdevice_role: 'parent' });
    await t.post(`${API}/interface-templates/`, { device_type: ports.id, name: 'ge-0/0/0', type: '1000base-t' });
    await t.post(`${API}/rear-port-templates/`, { device_type: ports.id, name: 'R1', type: 'lc' });
    await t.post(`${API}/device-bay-templates/`, { device_type: chassis.id, name: 'Slot 1' });
    await t.post(`${API}/inventory-item-templates/`, { device_type: chassis.id, name: 'PSU' });
    expect(await ids(`${API}/device-types/?interfaces=true`)).toEqual([ports.id]);
    expect(await ids(`${API}/device-types/?interfaces=false`)).toEqual([bare.id, chassis.id]);
    expect(await ids(`${API}/device-types/?pass_through_ports=true`)).toEqual([ports.id]);
    expect(await ids(`${API}/device-types/?device_bays=true&inventory_items=true`)).toEqual([chassis.id]);
    expect(await ids(`${API}/device-types/?interface_template_count__gte=1`)).toEqual([ports.id]);
    await rejects(`${API}/device-types/?interfaces=maybe`, 'interfaces');

    const { body: card } = await t.post(`${API}/module-types/`, { manufacturer: juniper.id, model: 'PIC' });
    const { body: blank } = await t.post(`${API}/module-types/`, { manufacturer: juniper.id, model: 'Blank' });
    await t.post(`${API}/power-port-templates/`, { module_type: card.id, name: 'PEM{module}' });
    expect(await ids(`${API}/module-types/?power_ports=true`)).toEqual([card.id]);
    expect(await ids(`${API}/module-types/?power_ports=false`)).toEqual([blank.id]);
  });
});

describe('platforms', () => {
  it('available_for_device_type: those of no manufacturer or of the type\'s', async () => {
    const junos = (await t.post(`${API}/platforms/`, { name: 'Junos', slug: 'junos', manufacturer: juniper.id })).body;
    const eos = (await t.post(`${API}/platforms/`, { name: 'EOS', slug: 'eos', manufacturer: arista.id })).body;
    const linux = (await t.post(`${API}/platforms/`, { name: 'Linux', slug: 'linux' })).body;
    const type = await newType(arista, 'DCS-7050');
    expect(await ids(`${API}/platforms/?available_for_device_type=${type.id}`)).toEqual([eos.id, linux.id]);
    expect(await ids(`${API}/platforms/?manufacturer_id=${juniper.id}`)).toEqual([junos.id]);
    await rejects(`${API}/platforms/?available_for_device_type=99999`, 'available_for_device_type');
    await rejects(`${API}/platforms/?available_for_device_type=x`, 'available_for_device_type');
  });
});

describe('bays', () => {
  it('devices by parent_bay_id, module bays by installed_module_id and parent_id', async () => {
    const chassis = await newType(juniper, 'Blade chassis', { subdevice_role: 'parent' });
    const blade = await newType(juniper, 'Blade', { subdevice_role: 'child', u_height: 0 });
    await t.post(`${API}/device-bay-templates/`, [{ device_type: chassis.id, name: 'B1' }, { device_type: chassis.id, name: 'B2' }]);
    const holder = await newDevice('holder', chassis);
    const child = await newDevice('child', blade);
    await newDevice('free', blade);
    const bays = (await t.get(`${API}/device-bays/?device_id=${holder.id}`)).body.results as Body[];
    await t.request('PATCH', `${API}/device-bays/${bays[0].id}/`, { body: { installed_device: child.id } });
    expect(await ids(`${API}/devices/?parent_bay_id=${bays[0].id}`)).toEqual([child.id]);
    expect(await ids(`${API}/devices/?parent_bay_id=${bays[1].id}`)).toEqual([]);
    expect(await ids(`${API}/devices/?parent_device_id=${holder.id}`)).toEqual([child.id]);

    const router = await newType(juniper, 'MX', { u_height: 2 });
    await t.post(`${API}/module-bay-templates/`, [{ device_type: router.id, name: 'FPC0', position: '0' }, { device_type: router.id, name: 'FPC1', position: '1' }]);
    const { body: fpc } = await t.post(`${API}/module-types/`, { manufacturer: juniper.id, model: 'FPC' });
    await t.post(`${API}/module-bay-templates/`, { module_type: fpc.id, name: 'PIC{module}', position: '0' });
    const mx = await newDevice('mx', router);
    const [fpc0, fpc1] = (await t.get(`${API}/module-bays/?device_id=${mx.id}`)).body.results as Body[];
    const { body: module } = await t.post(`${API}/modules/`, { device: mx.id, module_bay: fpc0.id, module_type: fpc.id });
    expect(await ids(`${API}/module-bays/?installed_module_id=${module.id}`)).toEqual([fpc0.id]);
    expect(await ids(`${API}/module-bays/?installed_module_id__n=${module.id}&device_id=${mx.id}`)).toHaveLength(2);
    const inner = (await t.get(`${API}/module-bays/?module_id=${module.id}`)).body.results as Body[];
    expect(inner.map((b) => b.name)).toEqual(['PIC0']);
    expect(Object.keys(inner[0]).includes('_depth')).toBe(false);
    expect(await ids(`${API}/module-bays/?parent_id=${fpc0.id}`)).toEqual([inner[0].id]);
    expect(await ids(`${API}/module-bays/?parent_id=${fpc1.id}`)).toEqual([]);
    expect((await t.get(`${API}/module-bays/?brief=1&id=${fpc0.id}`)).body.results[0]).toEqual({
      id: fpc0.id, url: expect.any(String), display: 'FPC0', installed_module: expect.objectContaining({ id: module.id }), name: 'FPC0', description: '',
    });
    await rejects(`${API}/module-bays/?installed_module_id=99999`, 'installed_module_id');
  });
});

describe('interfaces', () => {
  let sw1: Body;
  let sw2: Body;
  let sw3: Body;
  const iface = async (device: Body, name: string, extra: object = {}) =>
    (await t.post(`${API}/interfaces/`, { device: device.id, name, type: '10gbase-x-sfpp', ...extra })).body as Body;

  beforeAll(async () => {
    const type = await newType(arista, 'DCS-7280');
    const { body: vc } = await t.post(`${API}/virtual-chassis/`, { name: 'pair' });
    sw1 = await newDevice('sw1', type, { virtual_chassis: vc.id, vc_position: 1 });
    sw2 = await newDevice('sw2', type, { virtual_chassis: vc.id, vc_position: 2 });
    sw3 = await newDevice('sw3', type);
    await t.request('PATCH', `${API}/virtual-chassis/${vc.id}/`, { body: { master: sw1.id } });
  });

  it('kind: physical, virtual or wireless', async () => {
    const dev = await newDevice('kinds', await newType(arista, 'Kinds'));
    const phys = await iface(dev, 'Ethernet1');
    const lag = await iface(dev, 'Port-Channel1', { type: 'lag' });
    const wifi = await iface(dev, 'wlan0', { type: 'ieee802.11ac' });
    expect(await ids(`${API}/interfaces/?device_id=${dev.id}&kind=physical`)).toEqual([phys.id]);
    expect(await ids(`${API}/interfaces/?device_id=${dev.id}&kind=Virtual`)).toEqual([lag.id]);
    expect(await ids(`${API}/interfaces/?device_id=${dev.id}&kind=wireless`)).toEqual([wifi.id]);
    await rejects(`${API}/interfaces/?kind=logical`, 'kind');
  });

  it('virtual chassis members see the other members\' non-management interfaces; _or_master only from the master', async () => {
    const own1 = await iface(sw1, 'Ethernet1');
    const mgmt1 = await iface(sw1, 'Management1', { type: '1000base-t', mgmt_only: true });
    const own2 = await iface(sw2, 'Ethernet1');
    const mgmt2 = await iface(sw2, 'Management1', { type: '1000base-t', mgmt_only: true });
    const own3 = await iface(sw3, 'Ethernet1');
    const sorted = (...list: Body[]) => list.map((i) => i.id as number).sort((a, b) => a - b);
    expect(await ids(`${API}/interfaces/?virtual_chassis_member=sw2`)).toEqual(sorted(own1, own2, mgmt2));
    expect(await ids(`${API}/interfaces/?virtual_chassis_member_id=${sw1.id}`)).toEqual(sorted(own1, mgmt1, own2));
    expect(await ids(`${API}/interfaces/?virtual_chassis_member_or_master=sw1`)).toEqual(sorted(own1, mgmt1, own2));
    expect(await ids(`${API}/interfaces/?virtual_chassis_member_or_master_id=${sw2.id}`)).toEqual(sorted(own2, mgmt2));
    expect(await ids(`${API}/interfaces/?virtual_chassis_member=sw3`)).toEqual(sorted(own3));
    expect(await ids(`${API}/interfaces/?virtual_chassis_member=nobody`)).toEqual([]);
    await rejects(`${API}/interfaces/?virtual_chassis_member_id=sw1`, 'virtual_chassis_member_id');
  });

  it('by MAC address, primary MAC address, WWN and VDC identifier', async () => {
    const dev = await newDevice('macs', await newType(arista, 'Macs'));
    const a = await iface(dev, 'Ethernet1', { wwn: '5000000000000001' });
    const b = await iface(dev, 'Ethernet2');
    const { body: macA } = await t.post(`${API}/mac-addresses/`, { mac_address: '00:1a:2b:3c:4d:01', assigned_object_type: 'dcim.interface', assigned_object_id: a.id });
    await t.post(`${API}/mac-addresses/`, { mac_address: '00:1a:2b:3c:4d:02', assigned_object_type: 'dcim.interface', assigned_object_id: b.id });
    const { body: loose } = await t.post(`${API}/mac-addresses/`, { mac_address: '00:1a:2b:3c:4d:03' });
    await t.request('PATCH', `${API}/interfaces/${a.id}/`, { body: { primary_mac_address: macA.id } });
    expect(await ids(`${API}/mac-addresses/?assigned=false`)).toEqual([loose.id]);
    expect(await ids(`${API}/mac-addresses/?assigned=true`)).not.toContain(loose.id);
    expect(await ids(`${API}/interfaces/?mac_address=00-1A-2B-3C-4D-02`)).toEqual([b.id]);
    expect(await ids(`${API}/interfaces/?mac_address=001a.2b3c.4d01&mac_address=00:1a:2b:3c:4d:02`)).toEqual([a.id, b.id]);
    expect(await ids(`${API}/interfaces/?primary_mac_address=00:1A:2B:3C:4D:01`)).toEqual([a.id]);
    expect(await ids(`${API}/interfaces/?primary_mac_address_id=${macA.id}`)).toEqual([a.id]);
    expect(await ids(`${API}/devices/?mac_address=00:1a:2b:3c:4d:02`)).toEqual([dev.id]);
    expect(await ids(`${API}/interfaces/?wwn=50:00:00:00:00:00:00:01`)).toEqual([a.id]);
    expect(await ids(`${API}/interfaces/?wwn__ic=00:01`)).toEqual([a.id]);
    await rejects(`${API}/interfaces/?mac_address=zz`, 'mac_address');
    await rejects(`${API}/interfaces/?primary_mac_address=zz`, 'primary_mac_address');
    await rejects(`${API}/interfaces/?primary_mac_address=00:00:00:00:00:09`, 'primary_mac_address');
    await rejects(`${API}/interfaces/?wwn=123`, 'wwn');

    const { body: vdc } = await t.post(`${API}/virtual-device-contexts/`, { name: 'ctx1', device: dev.id, identifier: 7, status: 'active' });
    await t.request('PATCH', `${API}/interfaces/${b.id}/`, { body: { vdcs: [vdc.id] } });
    expect(await ids(`${API}/interfaces/?vdc_identifier=7`)).toEqual([b.id]);
    expect(await ids(`${API}/interfaces/?vdc_id=${vdc.id}`)).toEqual([b.id]);
    expect(await ids(`${API}/virtual-device-contexts/?interface_id=${b.id}`)).toEqual([vdc.id]);
    expect(await ids(`${API}/virtual-device-contexts/?interface_id=${a.id}`)).toEqual([]);
    await rejects(`${API}/interfaces/?vdc_identifier=seven`, 'vdc_identifier');
    await rejects(`${API}/interfaces/?vdc_identifier=8`, 'vdc_identifier');
  });

  it('devices by how many components they have', async () => {
    const dev = await newDevice('counted', await newType(arista, 'Counted'));
    await iface(dev, 'Ethernet1');
    await iface(dev, 'Ethernet2');
    expect(await ids(`${API}/devices/?interface_count=2&name=counted`)).toEqual([dev.id]);
    expect(await ids(`${API}/devices/?interface_count__gt=2&name=counted`)).toEqual([]);
    expect(await ids(`${API}/devices/?interface_count__n=2&name=counted`)).toEqual([]);
    await rejects(`${API}/devices/?interface_count=two`, 'interface_count');
  });
});

describe('bad values', () => {
  it('are a 400 naming the parameter, for every filter taking ids', async () => {
    for (const path of ['devices/?parent_bay_id=x', 'virtual-device-contexts/?interface_id=x', 'interfaces/?virtual_chassis_member_id=x', 'module-bays/?installed_module_id=x']) {
      await rejects(`${API}/${path}`, path.split('?')[1].split('=')[0]);
    }
  });
});
