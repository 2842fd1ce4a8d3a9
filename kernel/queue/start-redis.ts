import type { EmbeddedRedis } from '@patchbay/embedded';
import type { QueuePort } from '@patchbay/queue';
import type { Logger } from '../base/log.js';
import { SettingsError } from '../config/load.js';
import { withoutPassword } from '../config/urls.js';

/** Starts (or attaches to) the embedded Redis; its URL, or undefined (jobs then queue in PostgreSQL) when `redis-server` is missing. */
export async function startRedis(redis: EmbeddedRedis | undefined, log: Logger): Promise<string | undefined> {
  if (!redis) return undefined;
  const url = await redis.start((m) => log.info(m));
  if (!url) log.info('REDIS_URL is not set and redis-server is not installed: background jobs queue in PostgreSQL');
  else log.info(redis.attached ? `Using the embedded Redis of the server running on ${url}` : `Started an embedded Redis on ${url}`);
  return url;
}

/** How long a server starting on REDIS_URL waits for Redis's first answer before it gives up, saying why. */
const FIRST_ANSWER_MS = 5000;

/**
 * Whether the Redis of REDIS_URL answers: polled until it does or FIRST_ANSWER_MS pass (the connection opens in the
 * background). A server that started without it would crash at its first job; it stops instead, naming the setting.
 */
export async function checkRedis(queue: QueuePort, url: string): Promise<void> {
  const until = Date.now() + FIRST_ANSWER_MS;
  while (!(await queue.ping())) {
    if (Date.now() > until) {
      throw new SettingsError(`REDIS_URL: no answer from ${withoutPassword(url)} within ${FIRST_ANSWER_MS / 1000} s; check that Redis runs there and the URL is right, or unset REDIS_URL`);
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
}
