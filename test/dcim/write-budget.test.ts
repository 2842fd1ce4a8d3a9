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
  it('racks of a type, in a location of their site: 24 statements for 1 or 100', async () => {
    await expectFlatWrites(24, async (size) => {
      const bodies = Array.from({ length: size }, () => ({
        name: `Rack ${serial++}`, site: { slug: 'budget-site' }, location: { slug: 'budget-hall' }, rack_type: { slug: '42u' },
      }));
      return (await statements(201, () => t.post(`${API}/racks/`, bodies))).count;
    });
  });

  it('reservations in racks they lock: 20 statements for 1 or 100', async () => {
    const { body: racks } = await t.post(`${API}/racks/`, Array.from({ length: 100 }, () => ({ name: `Reserving ${serial++}`, site: { slug: 'budget-site' } })));
    let round = 0;
    await expectFlatWrites(20, async (size) => {
      const unit = ++round;
      const bodies = racks.slice(0, size).map((r: { id: number }) => ({ rack: r.id, units: [unit], user: t.admin.id, description: 'Budget' }));
      return (await statements(201, () => t.post(`${API}/rack-reservations/`, bodies))).count;
    });
  });
});
