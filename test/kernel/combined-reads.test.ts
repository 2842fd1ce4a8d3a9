import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataAccess, ListQuery } from '../../kernel/plugins/data.js';
import type { Model } from '../../kernel/model/model.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * `listEach` reads every read whose columns are known in one statement (a UNION ALL, each read's columns in a range
 * of their own), whatever its model: each read answers what `list` answers alone.
 */
let t: TestServer;
let access: DataAccess;
const ids: Record<string, number> = {};

async function make(path: string, body: Record<string, unknown>): Promise<number> {
  const res = await t.post(path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.body.id as number;
}

beforeAll(async () => {
  t = await startServer();
  access = t.server.pluginContext('dcim').system;
  ids.europe = await make('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  ids.france = await make('/api/dcim/regions/', { name: 'France', slug: 'france', parent: ids.europe });
  for (const [name, region] of [['Paris', ids.france], ['Lyon', ids.france], ['Berlin', ids.europe], ['Nowhere', null]] as const) {
    ids[name] = await make('/api/dcim/sites/', { name, slug: name.toLowerCase(), region, description: `${name} site`, latitude: name === 'Paris' ? 48.8566 : null });
  }
  for (let i = 0; i < 5; i++) await make('/api/tenancy/tenants/', { name: `Tenant ${i}`, slug: `tenant-${i}`, description: i % 2 ? 'odd' : '' });
});

afterAll(async () => {
  await t?.close();
});

describe('reads of several models in one statement', () => {
  const model = (key: string): Model => t.server.registry.get(key);

  it('answer each read as it reads alone: its rows, columns, types, order and page', async () => {
    const reads: { model: Model; query: ListQuery }[] = [
      { model: model('dcim.site'), query: { columns: ['name', 'region_id', 'latitude', 'created'], ordering: ['-name'] } },
      { model: model('dcim.site'), query: { params: { region_id: [String(ids.france)] }, columns: ['name', 'region_id', 'latitude', 'created'], limit: 1 } },
      { model: model('dcim.region'), query: { ids: [ids.france], columns: ['name', 'slug', 'parent_id'] } },
      { model: model('tenancy.tenant'), query: { params: { description: ['odd'] }, columns: ['name', 'description'], offset: 1 } },
      // Nothing matches: an empty answer in the same statement.
      { model: model('tenancy.tenant'), query: { params: { name: ['none'] }, columns: ['name', 'description'] } },
      // Whole rows: a statement of their own.
      { model: model('dcim.region'), query: { ordering: ['name'] } },
    ];
    let combined: unknown[][] = [];
    const statements = await t.statements(async () => {
      combined = await access.listEach(reads);
    });
    const alone = await Promise.all(reads.map(({ model: m, query }) => access.list(m, query)));
    expect(combined).toEqual(alone);
    expect(combined.map((rows) => rows.length)).toEqual([4, 1, 1, 1, 0, 2]);
    // Each column keeps its own type, as the server reads it alone: a numeric's text, a timestamp's, a null.
    const paris = (combined[0] as Record<string, unknown>[]).find((r) => r.name === 'Paris')!;
    expect(paris.latitude).toBe('48.856600');
    expect(paris.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\+00$/);
    expect((combined[0] as Record<string, unknown>[]).find((r) => r.name === 'Nowhere')!.region_id).toBeNull();
    // Besides the region the filter `region_id` looks up: one statement for the five reads, one for whole rows.
    const reading = statements.filter((s) => !s.sql.includes('as "key"'));
    expect(reading).toHaveLength(2);
    expect(reading.filter((s) => s.sql.includes('union all'))).toHaveLength(1);
  });

  it('refuse the whole read when one read refuses its filter, as that read alone would', async () => {
    const reads = [
      { model: model('dcim.site'), query: { columns: ['name'] } },
      { model: model('dcim.site'), query: { params: { latitude__lt: ['north'] }, columns: ['name'] } },
    ];
    const alone = await access.list(reads[1].model, reads[1].query).then(() => 'read', (err: Error) => err.message);
    expect(alone).not.toBe('read');
    await expect(access.listEach(reads)).rejects.toThrow(alone);
  });
});
