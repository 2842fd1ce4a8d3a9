import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropFileDatabases, startServer, type TestServer } from '../helpers/server.js';

const TENANTS = '/api/tenancy/tenants/';
const ROWS = 5000;

let t: TestServer;

/** The rows PostgreSQL read to answer the page the server selected for `path` (EXPLAIN ANALYZE of its statement). */
async function rowsRead(path: string): Promise<number> {
  const pages = (await t.statements(async () => expect((await t.get(path)).status).toBe(200)))
    .filter((s) => s.sql.includes('"tenancy_tenant"') && s.sql.includes('limit'));
  expect(pages).toHaveLength(1);
  const { rows } = await t.server.db.knex.raw(`explain (analyze, format json) ${pages[0].sql.replace(/\$\d+/g, '?')}`, pages[0].bindings as never[]);
  /** Every scan of the tenant table, by the rows it produced (and, for a filter, removed). */
  let read = 0;
  const visit = (node: Record<string, unknown>) => {
    if (node['Relation Name'] === 'tenancy_tenant') read += Number(node['Actual Rows']) + Number(node['Rows Removed by Filter'] ?? 0);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) visit(child);
  };
  visit(rows[0]['QUERY PLAN'][0].Plan);
  return read;
}

beforeAll(async () => {
  t = await startServer();
  await t.server.db.knex.raw(
    `insert into tenancy_tenant (name, slug, description, comments, created, last_updated)
     select 'Deep ' || n, 'deep-' || n, '', '', now(), now() from generate_series(1, ?) n`,
    [ROWS],
  );
  await t.server.db.knex.raw('analyze tenancy_tenant');
});

afterAll(async () => {
  await t?.close();
  await dropFileDatabases();
});

describe('deep pages', () => {
  it('start= reads the page it answers, however deep; offset= reads every row before it', async () => {
    const ids = (await t.server.db.knex('tenancy_tenant').orderBy('id').pluck('id')) as number[];
    const shallow = await rowsRead(`${TENANTS}?start=${ids[10]}&limit=50`);
    const deep = await rowsRead(`${TENANTS}?start=${ids[ROWS - 100]}&limit=50`);
    // The page and the one row that tells whether another follows.
    expect(shallow).toBeLessThanOrEqual(51);
    expect(deep).toBeLessThanOrEqual(51);
    expect(await rowsRead(`${TENANTS}?offset=${ROWS - 100}&limit=50&ordering=id`)).toBeGreaterThan(ROWS - 100);
    const page = (await t.get(`${TENANTS}?start=${ids[ROWS - 100]}&limit=50`)).body;
    expect(page.count).toBeNull();
    expect(page.results[0].id).toBe(ids[ROWS - 100]);
    expect(page.next).toContain(`start=${ids[ROWS - 51] + 1}`);
  });
});
