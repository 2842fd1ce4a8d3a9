import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Statements of one request, which must answer `status`. */
async function statements(status: number, send: () => Promise<Reply>): Promise<{ count: number; reply: Reply }> {
  let reply: Reply | undefined;
  const count = await t.countQueries(async () => {
    reply = await send();
  });
  expect(reply!.status, JSON.stringify(reply!.body).slice(0, 300)).toBe(status);
  return { count, reply: reply! };
}

/** Runs `write` for 1 and for 100 objects and expects the same statement count, `budget`. */
async function flat(budget: number, write: (size: number) => Promise<number>): Promise<void> {
  const counts = [await write(1), await write(100)];
  if (process.env.SHOW_QUERIES) console.log(counts);
  expect(counts).toEqual([budget, budget]);
}

describe('dcim write query budgets', () => {
  it('racks of a type, in a location of their site: 24 statements for 1 or 100', async () => {
    await flat(24, async (size) => {
      const bodies = Array.from({ length: size }, () => ({
        name: `Rack ${serial++}`, site: { slug: 'budget-site' }, location: { slug: 'budget-hall' }, rack_type: { slug: '42u' },
      }));
      return (await statements(201, () => t.post(`${API}/racks/`, bodies))).count;
    });
  });

  it('reservations in racks they lock: 20 statements for 1 or 100', async () => {
    const { body: racks } = await t.post(`${API}/racks/`, Array.from({ length: 100 }, () => ({ name: `Reserving ${serial++}`, site: { slug: 'budget-site' } })));
    let round = 0;
    await flat(20, async (size) => {
      const unit = ++round;
      const bodies = racks.slice(0, size).map((r: { id: number }) => ({ rack: r.id, units: [unit], user: t.admin.id, description: 'Budget' }));
      return (await statements(201, () => t.post(`${API}/rack-reservations/`, bodies))).count;
    });
  });
});
