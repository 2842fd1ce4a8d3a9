import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefKeys } from '../../kernel/model/render.js';
import type { Db } from '../../kernel/base/types.js';
import { startServer, type Body, type TestServer } from './server.js';

/** What a copy of `original` needs besides its values (a free bay, values that must differ); `n` numbers the copy. */
export type Prepare = (original: Body, n: number, t: TestServer) => Promise<Body>;

export interface CrudSuite {
  title: string;
  /** The models to exercise. */
  keys: string[];
  /** Fills the database with at least `SEEDED` objects of each model, every relation set. */
  seed: (db: Db) => Promise<void>;
  prepare?: Record<string, Prepare>;
}

export const SEEDED = 3;

/** Text values that must differ between copies. */
const UNIQUE_TEXT = new Set(['name', 'slug', 'model', 'facility_id']);

/**
 * Every endpoint of an app, the same way: read (list, detail, brief, ordering, paging, OPTIONS), create a copy of a
 * seeded object (one, then two in one request), replace it (PUT), change it (PATCH, one and in bulk) and delete it
 * (one and in bulk), each change in the change log. The copy is the seeded object read back as the API shows it,
 * turned into a write body with unique values made unique; models whose copy needs more get it from `prepare`.
 */
export function crudSuite(suite: CrudSuite): void {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer();
    await suite.seed(t.server.db.knex);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The write body that copies `original` (as read), from the fields OPTIONS says are writable. */
  async function copyOf(key: string, path: string, original: Body, n: number): Promise<Body> {
    const writable = (await t.request('OPTIONS', path)).body.actions.POST as Record<string, { read_only: boolean; type?: string }>;
    const body: Body = {};
    for (const [name, description] of Object.entries(writable)) {
      if (description.read_only || !(name in original)) continue;
      const value = original[name];
      if (description.type === 'image upload') continue;
      if (Array.isArray(value)) body[name] = value.map((v) => (v && typeof v === 'object' && 'id' in v ? v.id : v));
      else if (value && typeof value === 'object' && 'id' in value) body[name] = value.id;
      else if (value && typeof value === 'object' && 'value' in value && 'label' in value) body[name] = value.value;
      else if (typeof value === 'string' && UNIQUE_TEXT.has(name) && value) body[name] = name === 'slug' ? `${value}-copy-${n}` : `${value} copy ${n}`;
      else body[name] = value;
    }
    return { ...body, ...(await suite.prepare?.[key]?.(original, n, t)) };
  }

  const changes = async (key: string, id: number) =>
    ((await t.get(`/api/core/object-changes/?changed_object_type=${key}&changed_object_id=${id}&ordering=id`)).body.results as Body[]).map((c) => c.action.value);

  describe(suite.title, () => {
    it('covers every model of the app the server has', () => {
      const app = suite.keys[0].split('.')[0];
      const served = t.server.registry.all().filter((m) => m.served && m.key.startsWith(`${app}.`));
      expect(served.map((m) => m.key).sort()).toEqual([...suite.keys].sort());
    });

    it.each(suite.keys)('%s: reads, writes one and many, and logs each change', async (key) => {
      const model = t.server.registry.get(key);
      const path = t.server.registry.apiPath(model);
      const label = model.key;

      // Reads
      const list = await t.get(path);
      expect(list.status, label).toBe(200);
      expect(list.body.count, label).toBeGreaterThanOrEqual(SEEDED);
      const original = list.body.results[0] as Body;
      expect((await t.get(`${path}${original.id}/`)).body, label).toEqual(original);
      const brief = (await t.get(`${path}?brief=1&limit=1`)).body.results[0];
      expect(Object.keys(brief), label).toEqual(briefKeys(model, t.server.registry));
      const ids = ((await t.get(`${path}?ordering=-id`)).body.results as Body[]).map((r) => r.id as number);
      expect(ids, label).toEqual([...ids].sort((a, b) => b - a));
      for (const term of model.decl.ordering ?? []) expect((await t.get(`${path}?ordering=${term}`)).status, `${label} ordering=${term}`).toBe(200);
      const page = await t.get(`${path}?limit=1&offset=1`);
      expect(page.body.results, label).toHaveLength(1);
      expect(page.body.previous, label).toContain('limit=1');
      expect((await t.request('OPTIONS', path)).body.actions.POST, label).toBeDefined();

      // One object: create, read back, replace, change, delete
      const body = await copyOf(model.key, path, original, 1);
      const created = await t.post(path, body);
      expect(created.status, `${label} POST ${JSON.stringify(created.body)}`).toBe(201);
      const id = created.body.id as number;
      expect((await t.get(`${path}${id}/`)).body, label).toEqual(created.body);
      const hasDescription = Boolean(model.field('description'));
      if (hasDescription) {
        const replaced = await t.request('PUT', `${path}${id}/`, { body: { ...body, description: 'replaced' } });
        expect(replaced.status, `${label} PUT ${JSON.stringify(replaced.body)}`).toBe(200);
        expect(replaced.body.description, label).toBe('replaced');
        const patched = await t.request('PATCH', `${path}${id}/`, { body: { description: 'patched' } });
        expect(patched.body.description, label).toBe('patched');
      }
      expect((await t.request('DELETE', `${path}${id}/`)).status, label).toBe(204);
      expect((await t.get(`${path}${id}/`)).status, label).toBe(404);
      expect(await changes(model.key, id), label).toEqual(hasDescription ? ['create', 'update', 'update', 'delete'] : ['create', 'delete']);

      // Many objects in one request: create, change, delete
      const bodies = [await copyOf(model.key, path, original, 2), await copyOf(model.key, path, original, 3)];
      const made = await t.post(path, bodies);
      expect(made.status, `${label} bulk POST ${JSON.stringify(made.body)}`).toBe(201);
      const madeIds = (made.body as Body[]).map((o) => o.id as number);
      if (hasDescription) {
        const bulk = await t.request('PATCH', path, { body: madeIds.map((i) => ({ id: i, description: 'bulk' })) });
        expect(bulk.status, `${label} bulk PATCH ${JSON.stringify(bulk.body)}`).toBe(200);
        expect((bulk.body as Body[]).map((o) => o.description), label).toEqual(['bulk', 'bulk']);
      }
      expect((await t.request('DELETE', path, { body: madeIds.map((i) => ({ id: i })) })).status, label).toBe(204);
      expect((await t.get(`${path}?id=${madeIds[0]}&id=${madeIds[1]}`)).body.count, label).toBe(0);
    });
  });
}
