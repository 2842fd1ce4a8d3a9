import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { EmbeddedDatabase } from '@patchbay/embedded';

/** A real PostgreSQL for tests: TEST_DATABASE_URL's server if given, else an embedded one in a temp dir. */
export async function startPostgres(): Promise<{ adminUrl: string; stop: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) return { adminUrl: process.env.TEST_DATABASE_URL, stop: async () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'patchbay-test-pg-'));
  // PostgreSQL runs as its own user, which must reach the data directory.
  chmodSync(dir, 0o755);
  const cluster = new EmbeddedDatabase(dir, 'postgres');
  const url = await cluster.start();
  return {
    adminUrl: url,
    stop: async () => {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Turns off what makes commits durable on a throwaway cluster (the tests', never the benchmark's, which measures
 * what production pays): creating a database per test file and every commit of every test get cheaper.
 */
export async function withoutDurability(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes']) await client.query(`alter system set ${setting} = off`);
  await client.query('select pg_reload_conf()');
  await client.end();
}
