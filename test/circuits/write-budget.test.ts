import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectFlatWrites, writeStatements } from '../helpers/budgets.js';
import { startServer, type Body, type Reply, type TestServer } from '../helpers/server.js';

let t: TestServer;
let site: Body;
let serial = 0;

beforeAll(async () => {
  t = await startServer();
  ({ body: site } = await t.post('/api/dcim/sites/', { name: 'Budget site', slug: 'budget-site' }));
});
afterAll(async () => {
  await t?.close();
});

const statements = async (status: number, send: () => Promise<Reply>) => (await writeStatements(t, status, send)).count;

describe('circuits write query budgets', () => {
  it('circuits with their terminations: 11 and 15 statements for 1 or 100 (a termination re-traces the paths across its circuit)', async () => {
    const { body: provider } = await t.post('/api/circuits/providers/', { name: 'P', slug: 'p' });
    const { body: type } = await t.post('/api/circuits/circuit-types/', { name: 'T', slug: 't' });
    let made: Body[] = [];
    await expectFlatWrites(11, async (size) => {
      const { count, reply } = await writeStatements(t, 201, () =>
        t.post('/api/circuits/circuits/', Array.from({ length: size }, () => ({ cid: `C${serial++}`, provider: provider.id, type: type.id }))));
      made = reply.body as Body[];
      return count;
    });
    await expectFlatWrites(15, async (size) =>
      statements(201, () => t.post('/api/circuits/circuit-terminations/', made.slice(0, size).map((c: Body) => ({
        circuit: c.id, term_side: size === 1 ? 'Z' : 'A', termination_type: 'dcim.site', termination_id: site.id,
      })))),
    );
  });
});
