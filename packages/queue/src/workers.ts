import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { WorkerState } from './port.js';

/** This process as a worker: its counts and the jobs it runs, for the background workers list. */
export class WorkerTally {
  readonly name = `${hostname()}.${process.pid}.${randomBytes(3).toString('hex')}`;
  private readonly birth = new Date();
  private successful = 0;
  private failed = 0;
  private workingMs = 0;
  /** Jobs under way: id → start time. */
  readonly current = new Map<string, number>();

  constructor(private readonly queues: string[]) {}

  started(id: string): void {
    this.current.set(id, Date.now());
  }

  ended(id: string, ok: boolean): void {
    const since = this.current.get(id);
    this.current.delete(id);
    if (since !== undefined) this.workingMs += Date.now() - since;
    if (ok) this.successful += 1;
    else this.failed += 1;
  }

  state(): WorkerState & { current: string[] } {
    return {
      name: this.name, state: this.current.size ? 'busy' : 'idle', birth: this.birth, queues: this.queues,
      pid: process.pid, hostname: hostname(), successful: this.successful, failed: this.failed,
      workingTime: this.workingMs / 1000, current: [...this.current.keys()],
    };
  }
}
