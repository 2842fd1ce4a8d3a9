import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactRowCounts, ensureRowCounts } from '../../kernel/db/row-counts.js';
import { dropFileDatabases, startServer, type TestServer } from '../helpers/server.js';

const TENANTS = '/api/tenancy/tenants/';

let t: TestServer;

/** Each model table's counter and its count(*), read in one snapshot. */
async function countersAndCounts(tables: string[]): Promise<{ table: string; counter: number; rows: number }[]> {
  return t.server.db.knex.transaction(async (trx) => {
    await trx.raw('set transaction isolation level repeatable read');
    const out = [];
    for (const table of tables) {
      const [{ counter }] = (await trx('patchbay_row_count').whereRaw('table_oid = ?::regclass', [table]).select(trx.raw('coalesce(sum(delta), 0)::int as counter'))) as { counter: number }[];
      const [{ rows }] = (await trx(table).select(trx.raw('count(*)::int as rows'))) as { rows: number }[];
      out.push({ table, counter, rows });
    }
    return out;
  });
}

const tables = () => t.server.registry.all().map((m) => m.table);
const mismatches = async (names = tables()) => (await countersAndCounts(names)).filter((c) => c.counter !== c.rows);

/** The SQL texts `action` made the server run. */
const statementsOf = async (action: () => Promise<unknown>) => (await t.statements(action)).map((s) => s.sql);

beforeAll(async () => {
  t = await startServer();
});

afterAll(async () => {
  await t?.close();
  await dropFileDatabases();
});

describe('row counters', () => {
  it('every model table has one, equal to its count(*) from the start', async () => {
    expect(tables().length).toBeGreaterThan(100);
    expect(await mismatches()).toEqual([]);
  });

  it('follow creates, bulk creates, updates, deletes, cascades and truncates', async () => {
    const site = (await t.post('/api/dcim/sites/', { name: 'Counted', slug: 'counted' })).body;
    const made = await t.post(TENANTS, Array.from({ length: 25 }, (_, i) => ({ name: `Count ${i}`, slug: `count-${i}` })));
    expect(made.status).toBe(201);
    await t.patch(TENANTS, made.body.slice(0, 5).map((r: { id: number }) => ({ id: r.id, description: 'changed' })));
    expect((await t.delete(TENANTS, { body: made.body.slice(0, 10).map((r: { id: number }) => ({ id: r.id })) })).status).toBe(204);
    const role = (await t.post('/api/dcim/device-roles/', { name: 'Counted', slug: 'counted' })).body;
    const maker = (await t.post('/api/dcim/manufacturers/', { name: 'Counted', slug: 'counted' })).body;
    const type = (await t.post('/api/dcim/device-types/', { manufacturer: maker.id, model: 'C', slug: 'c' })).body;
    const device = await t.post('/api/dcim/devices/', { name: 'counted-1', role: role.id, device_type: type.id, site: site.id });
    expect(device.status).toBe(201);
    await t.post('/api/dcim/interfaces/', [1, 2, 3].map((i) => ({ device: device.body.id, name: `eth${i}`, type: '1000base-t' })));
    // Deleting the device takes its interfaces with it, by the kernel's cascade and by the database's.
    expect((await t.delete(`/api/dcim/devices/${device.body.id}/`)).status).toBe(204);
    // Rows written past the API (SQL of a plugin's own, a restore) are counted too.
    await t.server.db.knex('tenancy_tenant').insert([{ name: 'Raw', slug: 'raw', description: '', comments: '' }]);
    expect(await mismatches()).toEqual([]);
    expect((await t.get(`${TENANTS}?limit=1`)).body.count).toBe(16);
    await t.server.db.knex.raw('truncate extras_objectchange');
    expect(await mismatches(['extras_objectchange'])).toEqual([]);
  });

  it('stay exact under concurrent writers, deleters and folding, in every snapshot', async () => {
    let writing = true;
    const writer = async (k: number) => {
      for (let i = 0; writing; i++) {
        const made = await t.post(TENANTS, [{ name: `W${k}-${i}a`, slug: `w${k}-${i}a` }, { name: `W${k}-${i}b`, slug: `w${k}-${i}b` }]);
        expect(made.status).toBe(201);
        if (i % 2) expect((await t.delete(`${TENANTS}${made.body[0].id}/`)).status).toBe(204);
      }
    };
    const folder = async () => {
      while (writing) await compactRowCounts(t.server.db.knex);
    };
    const work = [writer(1), writer(2), writer(3), folder()];
    const seen: number[] = [];
    for (let round = 0; round < 40; round++) {
      const [tenants] = await countersAndCounts(['tenancy_tenant']);
      expect(tenants.counter).toBe(tenants.rows);
      seen.push(tenants.rows);
    }
    writing = false;
    await Promise.all(work);
    // The writers did write meanwhile: the snapshots compared saw different counts.
    expect(new Set(seen).size).toBeGreaterThan(1);
    const rows = Number((await t.server.db.knex('tenancy_tenant').count({ n: '*' }))[0].n);
    expect((await t.get(`${TENANTS}?limit=1`)).body.count).toBe(rows);
    // Folded, each table's counter is one row again.
    await compactRowCounts(t.server.db.knex);
    const rowsPerTable = await t.server.db.knex('patchbay_row_count').select('table_oid').count({ n: '*' }).groupBy('table_oid').having(t.server.db.knex.raw('count(*) > 1'));
    expect(rowsPerTable).toEqual([]);
  });

  it('are given to a table at start where it has none, and follow it through a rename', async () => {
    const knex = t.server.db.knex;
    const add = (table: string, n: number) => knex.raw(`insert into ${table} select from generate_series(1, ?)`, [n]);
    await knex.raw('create table scratch_counted (id serial primary key)');
    await add('scratch_counted', 2);
    await knex.transaction((trx) => ensureRowCounts(trx, ['scratch_counted']));
    await add('scratch_counted', 3);
    expect(await mismatches(['scratch_counted'])).toEqual([]);
    await knex.raw('alter table scratch_counted rename to scratch_renamed');
    await add('scratch_renamed', 1);
    // Started again after the migration that renamed it: nothing to do, the counter is the table's.
    await knex.transaction((trx) => ensureRowCounts(trx, ['scratch_renamed']));
    await knex('scratch_renamed').where('id', 1).delete();
    expect(await countersAndCounts(['scratch_renamed'])).toEqual([{ table: 'scratch_renamed', counter: 5, rows: 5 }]);
    // Emptied, a table keeps its counter at zero.
    await knex.raw('truncate scratch_renamed');
    expect(await countersAndCounts(['scratch_renamed'])).toEqual([{ table: 'scratch_renamed', counter: 0, rows: 0 }]);
    expect(Number((await knex('patchbay_row_count').whereRaw(`table_oid = 'scratch_renamed'::regclass`).count({ n: '*' }))[0].n)).toBe(1);
  });

  it('answer an unfiltered list, while filters, constraints and searches count the rows they select', async () => {
    const unfiltered = await statementsOf(async () => expect((await t.get(`${TENANTS}?limit=5`)).status).toBe(200));
    expect(unfiltered.filter((sql) => sql.includes('patchbay_row_count'))).toHaveLength(1);
    expect(unfiltered.filter((sql) => /count\(\*\)/.test(sql))).toEqual([]);
    const filtered = await statementsOf(async () => expect((await t.get(`${TENANTS}?limit=5&q=Count`)).status).toBe(200));
    expect(filtered.filter((sql) => sql.includes('patchbay_row_count'))).toEqual([]);
    const listed = (await t.get(`${TENANTS}?q=Count 1&limit=0`)).body;
    expect(listed.count).toBe(listed.results.length);

    const user = await t.userWith('counted', { actions: ['view'], objectTypes: ['tenancy.tenant'], constraints: { slug__startswith: 'count-' } });
    const constrained = await t.get(`${TENANTS}?limit=1`, { token: user.token });
    expect(constrained.body.count).toBe(Number((await t.server.db.knex('tenancy_tenant').where('slug', 'like', 'count-%').count({ n: '*' }))[0].n));
  });
});
