import type { Plugin } from '../kernel/plugin.js';
import { createServer } from '../kernel/server.js';
import { stopSignal } from '@patchbay/embedded';

/**
 * `manage worker`: takes events from the outbox and runs background jobs (webhook deliveries) until SIGINT or
 * SIGTERM, then lets the jobs under way finish. Start as many as needed, on as many machines, sharing the queue:
 * REDIS_URL's, or without Redis the database's.
 */
export async function worker(_args: string[], builtins: Plugin[]): Promise<number> {
  const server = await createServer({ builtins, startsRedis: true });
  await server.work();
  server.log.info(`Worker running jobs of queue "${server.queue.name}" (${server.settings.JOB_CONCURRENCY} at once)`);
  const signal = await stopSignal();
  server.log.info(`${signal}: finishing the jobs under way`);
  await server.close();
  return 0;
}
