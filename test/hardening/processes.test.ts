import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { manage } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/server.js';

describe('several processes', () => {
  it('starting together on an empty database migrate it once: one applies every migration, the others wait and find none', async () => {
    const url = await freshDatabase();
    // A statement limit shorter than the migrations: neither they nor the wait for them are bound by it.
    const env = { DATABASE_URL: url, SECRET_KEY: 'shared', STATEMENT_TIMEOUT: '1', LOG_LEVEL: 'warn' };
    const runs = await Promise.all([1, 2, 3].map(() => manage(['migrate'], env)));
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(runs.map(() => [0, '']));
    const appliers = runs.filter((r) => r.stdout.startsWith('Applied '));
    expect(appliers).toHaveLength(1);
    expect(runs.filter((r) => r.stdout === 'No migrations to apply.\n')).toHaveLength(2);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('select name, count(*)::int as n from patchbay_migrations group by name');
      expect(rows.length).toBe(appliers[0].stdout.trim().split('\n').length);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      const types = await client.query('select count(*)::int as n, count(distinct (app_label, model))::int as d from core_objecttype');
      expect(types.rows[0].n).toBe(types.rows[0].d);
      expect(types.rows[0].n).toBeGreaterThan(50);
    } finally {
      await client.end();
    }
  });
});
