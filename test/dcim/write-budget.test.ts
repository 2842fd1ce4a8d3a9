import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectFlatWrites, writeStatements } from '../helpers/budgets.js';
import { startServer, type Reply, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/dcim';
let serial = 0;

beforeAll(async () => {
  t = await startServer();
  await t.post(`${API}/sites/`, { name: 'Budget site', slug: 'budget-site' });
  await t.post(`${API}/locations/`, { name: 'Budget hall', slug: 'budget-hall', site: { slug: 'budget-site' } });
  await t.post(`${API}/manufacturers/`, { name: 'Budget vendor', slug: 'budget-vendor' });
  await t.post(`${API}/rack-types/`, { manufacturer: { slug: 'budget-vendor' }, model: '42U', slug: '42u', u_height: 42 });
});
afterAll(async () => {
  await t?.close();
});

const statements = (status: number, send: () => Promise<Reply>) => writeStatements(t, status, send);

describe('dcim write query budgets', () => {
  it('racks of a type, in a location of their site: 14 statements for 1 or 100', async () => {
    await expectFlatWrites(14, async (size) => {
      const bodies = Array.from({ length: size }, () => ({
        name: `Rack ${serial++}`, site: { slug: 'budget-site' }, location: { slug: 'budget-hall' }, rack_type: { slug: '42u' },
      }));
      return (await statements(201, () => t.post(`${API}/racks/`, bodies))).count;
    });
  });

  it('reservations in racks they lock: 13 statements for 1 or 100', async () => {
    const { body: racks } = await t.post(`${API}/racks/`, Array.from({ length: 100 }, () => ({ name: `Reserving ${serial++}`, site: { slug: 'budget-site' } })));
    let round = 0;
    await expectFlatWrites(13, async (size) => {
      const unit = ++round;
      const bodies = racks.slice(0, size).map((r: { id: number }) => ({ rack: r.id, units: [unit], user: t.admin.id, description: 'Budget' }));
      return (await statements(201, () => t.post(`${API}/rack-reservations/`, bodies))).count;
    });
  });

  it('cables between interfaces, paths traced: 9 statements to create, 25 to re-status, 21 to delete, for 1 or 100', async () => {
    await t.post(`${API}/device-roles/`, { name: 'Budget role', slug: 'budget-role' });
    await t.post(`${API}/device-types/`, { manufacturer: { slug: 'budget-vendor' }, model: 'Budget box', slug: 'budget-box' });
    const device = async (name: string) => (await t.post(`${API}/devices/`, { name, device_type: { slug: 'budget-box' }, role: { slug: 'budget-role' }, site: { slug: 'budget-site' } })).body;
    const [left, right] = [await device('cabled-left'), await device('cabled-right')];
    const ports = async (dev: { id: number }) =>
      (await t.post(`${API}/interfaces/`, Array.from({ length: 101 }, (_, n) => ({ device: dev.id, name: `et${n}`, type: '10gbase-x-sfpp' })))).body as { id: number }[];
    const [a, b] = [await ports(left), await ports(right)];
    const end = (port: { id: number }) => [{ object_type: 'dcim.interface', object_id: port.id }];
    let taken = 0;
    const made: { id: number }[][] = [];
    await expectFlatWrites(9, async (size) => {
      const bodies = a.slice(taken, taken + size).map((port, n) => ({ a_terminations: end(port), b_terminations: end(b[taken + n]) }));
      taken += size;
      const { count, reply } = await statements(201, () => t.post(`${API}/cables/`, bodies));
      made.push(reply.body as { id: number }[]);
      return count;
    });
    await expectFlatWrites(25, async (size) => {
      const bodies = made[size === 1 ? 0 : 1].map((c) => ({ id: c.id, status: 'planned' }));
      return (await statements(200, () => t.request('PATCH', `${API}/cables/`, { body: bodies }))).count;
    });
    await expectFlatWrites(21, async (size) => {
      const bodies = made[size === 1 ? 0 : 1].map((c) => ({ id: c.id }));
      return (await statements(204, () => t.request('DELETE', `${API}/cables/`, { body: bodies }))).count;
    });
  });
});
