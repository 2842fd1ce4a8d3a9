import type { JobHandler, QueuePort } from './port.js';

/** Runs jobs in this process after the current tick; for the embedded single-process mode. */
export class InProcessQueue implements QueuePort {
  readonly kind = 'in-process';
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: (msg: string) => void) {}

  handle(name: string, handler: JobHandler): void {
    this.handlers.set(name, handler);
  }

  async enqueue(name: string, data: unknown): Promise<void> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`No handler for job ${name}`);
    const run = (async () => {
      await new Promise((r) => setImmediate(r));
      try {
        await handler(data);
      } catch (err) {
        this.log(`job ${name} failed: ${(err as Error).message}`);
      }
    })();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    await Promise.all(this.running);
  }
}
