import type { TestProject } from 'vitest/node';
import { ADMIN_URL_ENV } from '../../testing/databases.js';
import { startPostgres, withoutDurability } from '../../testing/postgres.js';
import { startRedis } from './services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    redisUrl: string;
  }
}

/** Starts one real PostgreSQL and one real Redis for the whole run; the test kit (`patchbay/testing`) uses the same PostgreSQL. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  if (!process.env.TEST_DATABASE_URL) await withoutDurability(pg.adminUrl);
  process.env[ADMIN_URL_ENV] = pg.adminUrl;
  project.provide('pgAdminUrl', pg.adminUrl);
  project.provide('redisUrl', redis.url);
  return async () => {
    await Promise.all([pg.stop(), redis.stop()]);
  };
}
