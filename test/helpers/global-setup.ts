import type { TestProject } from 'vitest/node';
import { startPostgres, startRedis, withoutDurability } from './services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    redisUrl: string;
  }
}

/** Starts one real PostgreSQL and one real Redis for the whole run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  if (!process.env.TEST_DATABASE_URL) await withoutDurability(pg.adminUrl);
  project.provide('pgAdminUrl', pg.adminUrl);
  project.provide('redisUrl', redis.url);
  return async () => {
    await Promise.all([pg.stop(), redis.stop()]);
  };
}
