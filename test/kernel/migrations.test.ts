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

  it('order natural names by patchbay_natural: every run of digits padded to 8 places, as NetBox naturalizes', async () => {
    const alphabet = '0000123456789ab-/. é';
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const values = ['', '0', '00000000000', '000000000012', '123456789', '12345678', 'a1b2c3', 'Ethernet1/1', 'et-0/0/10', `x${'9'.repeat(30)}`,
      ...Array.from({ length: 3000 }, () => Array.from({ length: Math.floor(random() * 30) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''))];
    const { rows } = (await t.server.db.knex.raw(`select patchbay_natural(v) as key from unnest(?::text[]) with ordinality as u(v, n) order by n`, [values])) as { rows: { key: string }[] };
    expect(rows.map((r) => r.key)).toEqual(values.map((v) => v.replace(/\d+/g, (digits) => digits.padStart(8, '0'))));
  });

  it("index a nullable foreign key without its nulls, and a key that leads a unique only by the unique's index", async () => {
    const indexdef = async (name: string) => ((await t.server.db.knex.raw(`select indexdef from pg_indexes where indexname = ?`, [name])) as { rows: { indexdef: string }[] }).rows.map((r) => r.indexdef);
    expect(await indexdef('dcim_interface_lag_id_idx')).toEqual([expect.stringContaining('WHERE (lag_id IS NOT NULL)')]);
    expect(await indexdef('dcim_interface_device_id_idx')).toEqual([]);
    expect(await indexdef('dcim_interface_device_id_name_uniq1')).toEqual([expect.stringContaining('(device_id, name)')]);
    expect(await indexdef('maintenance_window_tenant_id_idx')).toEqual([expect.stringContaining('WHERE (tenant_id IS NOT NULL)')]);
    // Not one plain index of a nullable foreign key keeps its nulls, in any plugin's tables.
    const { rows } = (await t.server.db.knex.raw(`select i.indexrelid::regclass::text as name from pg_constraint k
      join pg_index i on i.indrelid = k.conrelid and i.indnatts = 1 and i.indkey[0] = k.conkey[1]
      join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
      where k.contype = 'f' and cardinality(k.conkey) = 1 and not a.attnotnull and not i.indisunique and i.indpred is null`)) as { rows: { name: string }[] };
    expect(rows).toEqual([]);
  });
});
