import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectFlatWrites, writeStatements } from '../helpers/budgets.js';
import { startServer, type Body, type Reply, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/ipam';
let interfaces: Body[];
let vrf: Body;
let group: Body;
let serial = 0;

beforeAll(async () => {
  t = await startServer();
  const { body: site } = await t.post('/api/dcim/sites/', { name: 'Budget site', slug: 'budget-site' });
  const { body: vendor } = await t.post('/api/dcim/manufacturers/', { name: 'V', slug: 'v' });
  const { body: type } = await t.post('/api/dcim/device-types/', { manufacturer: vendor.id, model: 'T', slug: 't' });
  const { body: role } = await t.post('/api/dcim/device-roles/', { name: 'R', slug: 'r' });
  const { body: device } = await t.post('/api/dcim/devices/', { name: 'r1', device_type: type.id, role: role.id, site: site.id });
  ({ body: interfaces } = await t.post('/api/dcim/interfaces/', Array.from({ length: 200 }, (_, i) => ({ device: device.id, name: `eth${i}`, type: '1000base-t' }))));
  ({ body: vrf } = await t.post(`${API}/vrfs/`, { name: 'Budget', rd: '65000:9', enforce_unique: true }));
  ({ body: group } = await t.post(`${API}/vlan-groups/`, { name: 'Budget', slug: 'budget', scope_type: 'dcim.site', scope_id: site.id }));
  await t.post(`${API}/ip-ranges/`, { start_address: '10.99.0.1/16', end_address: '10.99.0.50/16', vrf: vrf.id, mark_populated: true });
});
afterAll(async () => {
  await t?.close();
});

const statements = async (status: number, send: () => Promise<Reply>) => (await writeStatements(t, status, send)).count;

describe('ipam write query budgets', () => {
  it('addresses on interfaces, in an enforcing VRF with a populated range: 16 statements for 1 or 100 (the interface read back with its connection status)', async () => {
    await expectFlatWrites(16, async (size) => {
      const bodies = Array.from({ length: size }, () => {
        const n = serial++;
        return { address: `10.${100 + Math.floor(n / 250)}.${n % 250}.1/24`, vrf: vrf.id, assigned_object_type: 'dcim.interface', assigned_object_id: interfaces[n % 200].id };
      });
      return statements(201, () => t.post(`${API}/ip-addresses/`, bodies));
    });
  });

  it('prefixes in a VRF: 11 statements for 1 or 100', async () => {
    await expectFlatWrites(11, async (size) => {
      const bodies = Array.from({ length: size }, () => {
        const n = serial++;
        return { prefix: `172.${16 + Math.floor(n / 256)}.${n % 256}.0/24`, vrf: vrf.id, status: 'active' };
      });
      return statements(201, () => t.post(`${API}/prefixes/`, bodies));
    });
  });

  it('VLANs in a site-scoped group: 8 statements for 1 or 100', async () => {
    await expectFlatWrites(8, async (size) => {
      const bodies = Array.from({ length: size }, () => {
        const n = serial++;
        return { vid: (n % 4000) + 1, name: `VLAN ${n}`, group: group.id };
      });
      return statements(201, () => t.post(`${API}/vlans/`, bodies));
    });
  });

  it('addresses taken from a prefix (POST available-ips): 13 statements for 1 or 100', async () => {
    const { body: prefix } = await t.post(`${API}/prefixes/`, { prefix: '192.168.0.0/16' });
    await expectFlatWrites(13, async (size) => statements(201, () => t.post(`${API}/prefixes/${prefix.id}/available-ips/`, Array.from({ length: size }, () => ({ description: 'taken' })))));
  });
});
