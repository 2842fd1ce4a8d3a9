import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PLUGIN, startServer, type TestServer } from '../helpers/server.js';

describe('migrations', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer({ plugins: [EXAMPLE_PLUGIN] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('make the schema the model declarations describe, indexes included (the example plugin too): makemigrations finds nothing to write', async () => {
    const diff = await t.server.db.orm.getSchemaGenerator().getUpdateSchemaMigrationSQL({ wrap: false, safe: false, dropTables: false });
    expect(diff.up.trim()).toBe('');
    const { rows } = (await t.server.db.knex.raw(`select indexdef from pg_indexes where indexname = 'tenancy_tenant_ordering'`)) as { rows: { indexdef: string }[] };
    expect(rows.map((r) => r.indexdef)).toEqual([expect.stringContaining('(name, id)')]);
    // Derived from the default ordering as each field orders: a natural name by its key.
    const window = (await t.server.db.knex.raw(`select indexdef from pg_indexes where indexname = 'maintenance_window_ordering'`)) as { rows: { indexdef: string }[] };
    expect(window.rows.map((r) => r.indexdef)).toEqual([expect.stringContaining('(starts, name_natural, id)')]);
  });
});
