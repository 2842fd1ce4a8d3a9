import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparedStatements, type PgConnection } from '../../kernel/db/prepared.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** The statements prepared on the connection a transaction of `t`'s pool runs on, after running `text` twice there. */
async function preparedAfterTwoRuns(t: TestServer, text: string): Promise<string[]> {
  return t.server.db.knex.transaction(async (trx) => {
    await trx.raw(text, [1, 1]);
    await trx.raw(text, [1, 1]);
    const { rows } = (await trx.raw('select statement from pg_prepared_statements')) as { rows: { statement: string }[] };
    return rows.map((r) => r.statement);
  });
}

describe('prepared statements', () => {
  let t: TestServer;
  let off: TestServer;
  beforeAll(async () => {
    t = await startServer();
    off = await startServer({ settings: { PREPARED_STATEMENTS: false } });
  });
  afterAll(async () => {
    await Promise.all([t?.close(), off?.close()]);
  });

  it('prepares a statement run a second time, once per connection; not with PREPARED_STATEMENTS=false', async () => {
    const text = 'select 42 as answer where ? = ?';
    expect(await preparedAfterTwoRuns(t, text)).toContain('select 42 as answer where $1 = $2');
    expect(await preparedAfterTwoRuns(off, text)).not.toContain('select 42 as answer where $1 = $2');
  });

  it('keeps the statements a connection used last, deallocating the one used longest ago', async () => {
    const client = new pg.Client({ connectionString: t.server.db.url });
    await client.connect();
    try {
      new PreparedStatements(2).attach(client as unknown as PgConnection);
      // As knex calls it: a config and a callback.
      const run = (text: string) => new Promise<pg.QueryResult>((resolve, reject) => {
        (client.query as unknown as PgConnection['query'])({ text, values: [1] }, (err: Error | null, result: pg.QueryResult) => (err ? reject(err) : resolve(result)));
      });
      const prepared = async () => ((await client.query('select statement from pg_prepared_statements order by statement')).rows as { statement: string }[]).map((r) => r.statement);
      const texts = [1, 2, 3].map((n) => `select ${n} as n where $1 = 1`);
      await client.query('begin');
      for (const text of texts) for (let i = 0; i < 2; i++) expect((await run(text)).rows).toEqual([{ n: Number(text.split(' ')[1]) }]);
      expect(await prepared()).toEqual([texts[1], texts[2]]);
      // The first comes back (it lost its name, and gets it again the second time): prepared again, displacing the
      // one used longest ago.
      for (let i = 0; i < 2; i++) await run(texts[0]);
      expect(await prepared()).toEqual([texts[0], texts[2]]);
      expect((await run(texts[1])).rows).toEqual([{ n: 2 }]);
      await client.query('commit');
    } finally {
      await client.end();
    }
  });

  it('survives a schema change by another process: reads answer 200 or 503 (never 500) until the pool has fresh connections, writes are run again', async () => {
    // An object's page reads `select t.*`, whose rows change shape with the table.
    const tenant = (await t.post('/api/tenancy/tenants/', { name: 'Before the upgrade', slug: 'before-the-upgrade' })).body as { id: number };
    const page = `/api/tenancy/tenants/${tenant.id}/`;
    for (let i = 0; i < 12; i++) expect((await t.get(page)).status).toBe(200);
    // What a rolling upgrade's migration does beside a running server: the rows of `select *` change shape.
    const other = new pg.Client({ connectionString: t.server.db.url });
    await other.connect();
    try {
      await other.query('alter table tenancy_tenant add column upgrade_note text');
    } finally {
      await other.end();
    }
    const statuses: number[] = [];
    for (let i = 0; i < 25 && statuses.at(-1) !== 200; i++) statuses.push((await t.get(page)).status);
    expect(statuses.every((s) => s === 200 || s === 503), JSON.stringify(statuses)).toBe(true);
    expect(statuses.at(-1)).toBe(200);
    const created = await t.post('/api/tenancy/tenants/', { name: 'After the upgrade', slug: 'after-the-upgrade' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await t.get(`/api/tenancy/tenants/${(created.body as { id: number }).id}/`)).status).toBe(200);
  });
});
