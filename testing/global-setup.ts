import { ADMIN_URL_ENV } from './databases.js';
import { startPostgres, withoutDurability } from './postgres.js';

/**
 * vitest's global setup for `patchbayVitest()`: one PostgreSQL for the whole run (TEST_DATABASE_URL's, or an
 * embedded one without durability), named to the test processes, which inherit the environment.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const pg = await startPostgres();
  if (!process.env.TEST_DATABASE_URL) await withoutDurability(pg.adminUrl);
  process.env[ADMIN_URL_ENV] = pg.adminUrl;
  return pg.stop;
}
