import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAll } from '../../kernel/base/batches.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('insertAll', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer();
    await t.server.db.knex.raw(`create table insert_probe (
      id serial primary key, name varchar(5) not null, kind varchar(10) not null default 'plain', ids integer[], data jsonb,
      doc json, address inet, amount numeric(8, 2), day date, at timestamptz, created timestamptz, unique (name))`);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores every kind of value as the column reads it, in one statement for rows of the same columns', async () => {
    const db = t.server.db.knex;
    const before = t.server.db.queryCount;
    const rows = await insertAll<Record<string, unknown>>(db, 'insert_probe', [
      { name: 'a', ids: [1, 2], data: { b: 1, a: [true] }, doc: '{"z": 1, "a": 2}', address: '10.0.0.1/24', amount: 3.5, day: '2026-01-02', at: new Date('2026-11-27T01:02:03.456Z') },
      { name: 'b', ids: null, data: null, doc: null, address: null, amount: '12.25', day: null, at: null },
    ], { returning: ['*'], now: ['created'], json: ['doc'] });
    expect(t.server.db.queryCount - before).toBe(1);
    expect(rows.map((r) => ({ ...r, id: undefined, created: undefined }))).toEqual([
      { id: undefined, name: 'a', kind: 'plain', ids: [1, 2], data: { a: [true], b: 1 }, doc: { z: 1, a: 2 }, address: '10.0.0.1/24', amount: '3.50', day: '2026-01-02', at: '2026-11-27 01:02:03.456+00', created: undefined },
      { id: undefined, name: 'b', kind: 'plain', ids: null, data: null, doc: null, address: null, amount: '12.25', day: null, at: null, created: undefined },
    ]);
    // The json column keeps the text as written: its keys in their order.
    const { rows: [doc] } = (await db.raw(`select doc::text from insert_probe where name = 'a'`)) as { rows: { doc: string }[] };
    expect(doc.doc).toBe('{"z": 1, "a": 2}');
    expect(rows[0].created).toEqual(expect.any(String));
  });

  it('sends a value every row shares once, and reads it back as the column does', async () => {
    const db = t.server.db.knex;
    const rows = Array.from({ length: 3 }, (_, n) => ({ name: `s${n}`, kind: 'shared', doc: '{"z": 1, "a": 2}', amount: '1.5', day: null, ids: [n] }));
    const before = t.server.db.queryCount;
    const inserted = await insertAll<Record<string, unknown>>(db, 'insert_probe', rows, { returning: ['name', 'kind', 'amount', 'day', 'ids'], json: ['doc'] });
    expect(t.server.db.queryCount - before).toBe(1);
    expect(inserted).toEqual(rows.map((r) => ({ name: r.name, kind: 'shared', amount: '1.50', day: null, ids: r.ids })));
    const docs = (await db('insert_probe').whereIn('name', ['s0', 's2']).orderBy('name').select(db.raw('doc::text as doc'))) as { doc: string }[];
    expect(docs.map((d) => d.doc)).toEqual(['{"z": 1, "a": 2}', '{"z": 1, "a": 2}']);
    // Rows alike in every column: each is still a row of its own.
    await db.raw(`create table insert_alike (id serial primary key, n integer, kind text not null default 'k')`);
    const alike = await insertAll<{ id: number; n: number; kind: string }>(db, 'insert_alike', [{ n: 7 }, { n: 7 }, { n: 7 }], { returning: ['*'] });
    expect(alike.map((r) => [r.n, r.kind])).toEqual([[7, 'k'], [7, 'k'], [7, 'k']]);
    expect(new Set(alike.map((r) => r.id)).size).toBe(3);
  });

  it('gives a column a row leaves out its default, one statement per run of rows writing the same columns', async () => {
    const db = t.server.db.knex;
    const before = t.server.db.queryCount;
    const rows = await insertAll<{ name: string; kind: string }>(db, 'insert_probe', [{ name: 'c' }, { name: 'd', kind: 'special' }, { name: 'e', kind: undefined }], {
      returning: ['name', 'kind'],
    });
    expect(t.server.db.queryCount - before).toBe(3);
    expect(rows).toEqual([{ name: 'c', kind: 'plain' }, { name: 'd', kind: 'special' }, { name: 'e', kind: 'plain' }]);
  });

  it('overwrites the other columns of a row clashing on the upsert columns, and refuses what the column refuses', async () => {
    const db = t.server.db.knex;
    await insertAll(db, 'insert_probe', [{ name: 'c', kind: 'upserted' }], { upsert: ['name'] });
    expect((await db('insert_probe').where('name', 'c').first('kind')).kind).toBe('upserted');
    await expect(insertAll(db, 'insert_probe', [{ name: 'toolong' }])).rejects.toMatchObject({ code: '22001' });
    await expect(insertAll(db, 'insert_probe', [{ name: 'c' }])).rejects.toMatchObject({ code: '23505' });
  });
});
