import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBehind } from '../../kernel/index.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('statements written behind', () => {
  let t: TestServer;
  const count = async (name: string) => Number(((await t.server.db.knex.raw('select count(*) from behind_probe where name = ?', [name])) as { rows: { count: string }[] }).rows[0].count);
  beforeAll(async () => {
    t = await startServer();
    await t.server.db.knex.raw('create table behind_probe (id serial primary key, name varchar(5) not null unique)');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('are seen by the statements after them and committed with the write, which does not wait for them', async () => {
    const tenants = t.server.registry.get('tenancy.tenant');
    const seen = await t.server.system.write(async (s) => {
      let settled = false;
      // pg_sleep: still running when writeBehind returns.
      await writeBehind(s.db, s.db.raw(`insert into behind_probe (name) select 'seen' from pg_sleep(0.2)`).then(() => (settled = true)));
      expect(settled).toBe(false);
      await s.create(tenants, [{ name: 'Behind', slug: 'behind' }]);
      const { rows } = (await s.db.raw(`select count(*)::int as n from behind_probe where name = 'seen'`)) as { rows: { n: number }[] };
      return rows[0].n;
    });
    expect(seen).toBe(1);
    expect(await count('seen')).toBe(1);
    expect((await t.get('/api/tenancy/tenants/?slug=behind')).body.count).toBe(1);
  });

  it('fail the write with their own error, not the aborted transaction the statements after them found; nothing is written', async () => {
    const tenants = t.server.registry.get('tenancy.tenant');
    const failure = await t.server.system.write(async (s) => {
      await s.create(tenants, [{ name: 'Rolled back', slug: 'rolled-back' }]);
      await writeBehind(s.db, s.db.raw(`insert into behind_probe (name) values ('too long')`));
      await s.db.raw('select 1');
    }).catch((err: unknown) => err as { code?: string; message?: string });
    // 22001: the value too long for varchar(5); the `select 1` after it met 25P02 (transaction aborted).
    expect(failure).toMatchObject({ code: '22001' });
    expect((await t.get('/api/tenancy/tenants/?slug=rolled-back')).body.count).toBe(0);

    // A failure no later statement met is found before the commit.
    const late = await t.server.system.write(async (s) => {
      await s.create(tenants, [{ name: 'Late', slug: 'late' }]);
      await writeBehind(s.db, s.db.raw(`insert into behind_probe (name) values ('too long')`));
    }).catch((err: unknown) => err as { code?: string });
    expect(late).toMatchObject({ code: '22001' });
    expect((await t.get('/api/tenancy/tenants/?slug=late')).body.count).toBe(0);
  });

  it('that lose a race are run again with the write, like any statement of it', async () => {
    await t.server.db.knex.raw(`insert into behind_probe (name) values ('taken')`);
    const attempts = await t.server.system.write(async (s) => {
      // 23505 on the first run (a unique violation is a conflict the runner retries), fine on the next.
      await writeBehind(s.db, s.db.raw('insert into behind_probe (name) values (?)', [s.attempt === 1 ? 'taken' : 'freed']));
      await s.db.raw('select 1');
      return s.attempt;
    });
    expect(attempts).toBe(2);
    expect(await count('freed')).toBe(1);
  });

  it('are waited for outside a write', async () => {
    const db = t.server.db.knex;
    await writeBehind(db, db.raw(`insert into behind_probe (name) values ('plain')`));
    expect(await count('plain')).toBe(1);
    await expect(writeBehind(db, db.raw(`insert into behind_probe (name) values ('plain')`))).rejects.toMatchObject({ code: '23505' });
  });
});
