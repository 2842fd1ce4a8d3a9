import type { Metrics } from './registry.js';
import { withinWait } from '@patchbay/guards';
import type { QueuePort } from '@patchbay/queue';

/**
 * The background queue's depth by state and its workers, read from the queue when scraped (every process sees the
 * same). A queue that does not answer leaves them without values, and the rest of the scrape goes on.
 */
export function queueMetrics(metrics: Metrics, queue: QueuePort): void {
  metrics.gauge({
    name: 'patchbay_queue_jobs', help: 'Jobs in the background queue (webhook deliveries, tracked jobs), by queue and state.', labels: ['queue', 'state'],
    collect: async (gauge) => {
      const stats = await withinWait(queue.stats()).catch(() => undefined);
      if (!stats) return;
      for (const state of ['queued', 'started', 'scheduled', 'deferred', 'failed', 'finished'] as const) gauge.set({ queue: stats.name, state }, stats[state]);
    },
  });
  metrics.gauge({
    name: 'patchbay_queue_workers', help: 'Processes working the background queue.', labels: ['queue'],
    collect: async (gauge) => {
      const workers = await withinWait(queue.workers()).catch(() => undefined);
      if (workers) gauge.set({ queue: queue.name }, workers.length);
    },
  });
}
