import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFilter } from '../../kernel/filters/compile.js';
import type { FilterNode } from '../../kernel/filters/tree.js';
import { searchFilter, searchTerms } from '../../kernel/model/search.js';
import { manage } from '../helpers/cli.js';
import { dropFileDatabases, freshDatabase, startServer, type TestServer } from '../helpers/server.js';

/**
 * `?q=` across relations unites each term's ids (`or(..., byIds)`), where it was one OR: the same rows, for every
 * model's search, on the demo data.
 */
let t: TestServer;

beforeAll(async () => {
  const url = await freshDatabase();
  const demo = await manage(['generate-demo', '--sites', '2', '--devices-per-site', '10', '--vms-per-site', '5'], { DATABASE_URL: url });
  expect(demo.code, demo.stderr).toBe(0);
  t = await startServer({ settings: { DATABASE_URL: url } });
});

afterAll(async () => {
  await t?.close();
  await dropFileDatabases();
});

describe('search by united ids', () => {
  it('finds what one OR finds, for every model and text', async () => {
    const { registry, db } = t.server;
    const knex = db.knex;
    const scope = { db: knex, registry };
    let compared = 0;
    let found = 0;
    for (const model of registry.all().filter((m) => m.served && m.search.length)) {
      const search = searchFilter(searchTerms(model, registry));
      const samples = (await knex(model.table).select('*').orderBy('id').limit(3)) as Record<string, unknown>[];
      // Texts from the data (the start of each text column of a few rows) and a few that match widely or nothing.
      const texts = new Set(['a', '1', '10.', 'dc-', 'core', 'no-such-thing']);
      for (const row of samples) for (const value of Object.values(row)) if (typeof value === 'string' && value.length > 2) texts.add(value.slice(0, 6));
      for (const text of texts) {
        // The search as `?q=` builds it, and the same terms ORed the other way.
        const node = await search.build('', [text], scope);
        if (node.op !== 'or' || node.nodes.length < 2) continue;
        const ids = async (tree: FilterNode) => {
          const qb = knex(`${model.table} as t`).select('t.id').orderBy('t.id');
          applyFilter(qb, model, tree, scope);
          return ((await qb) as { id: number }[]).map((r) => r.id).join(',');
        };
        const [united, ored] = [await ids({ ...node, byIds: true }), await ids({ ...node, byIds: false })];
        expect(united, `${model.key} ?q=${text}`).toBe(ored);
        compared++;
        if (united) found++;
      }
    }
    expect(compared).toBeGreaterThan(300);
    expect(found).toBeGreaterThan(100);
  });
});
