import type { EmbeddedRedis } from '@patchbay/embedded';
import type { Logger } from '../base/log.js';

/** Starts (or attaches to) the embedded Redis; its URL, or undefined (jobs then queue in PostgreSQL) when `redis-server` is missing. */
export async function startRedis(redis: EmbeddedRedis | undefined, log: Logger): Promise<string | undefined> {
  if (!redis) return undefined;
  const url = await redis.start((m) => log.info(m));
  if (!url) log.info('REDIS_URL is not set and redis-server is not installed: background jobs queue in PostgreSQL');
  else log.info(redis.attached ? `Using the embedded Redis of the server running on ${url}` : `Started an embedded Redis on ${url}`);
  return url;
}
