import Bull from 'bull';
import type { JobHandler, QueuePort } from './port.js';

/** Jobs in Redis through bull; one bull queue, jobs told apart by name. */
export class BullQueue implements QueuePort {
  readonly kind = 'redis';
  private readonly queue: Bull.Queue;

  constructor(redisUrl: string, name = 'patchbay') {
    this.queue = new Bull(name, redisUrl, {
      defaultJobOptions: { attempts: 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: 1000 },
    });
    // Connection errors surface through ping(); without a listener bull would crash the process.
    this.queue.on('error', () => {});
  }

  handle(name: string, handler: JobHandler): void {
    void this.queue.process(name, async (job) => handler(job.data));
  }

  async enqueue(name: string, data: unknown): Promise<void> {
    await this.queue.add(name, data);
  }

  async ping(): Promise<boolean> {
    try {
      const client = await Promise.race([
        this.queue.isReady(),
        new Promise<never>((_, fail) => setTimeout(() => fail(new Error('timeout')), 2000)),
      ]);
      return (await client.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
