import type { Server, ServerResponse } from 'node:http';
import { guarded } from '@patchbay/guards';

/** How long after its last response a process counts as idle, its background work then running unhindered. */
export const QUIET_MS = 10;
/**
 * While requests keep a process busy, BUSY_STEPS of its background work's steps go on together every BUSY_TURN_MS:
 * it slows, it never stops; together, their statements share round trips (a delivery's log is written in batches).
 */
export const BUSY_TURN_MS = 100;
export const BUSY_STEPS = 5;

/** What background work sees of its process's requests (`Services.requests`). */
export interface RequestLoadPort {
  /**
   * Resolves when this process may run a step of background work: at once when it has answered no request for
   * QUIET_MS (or answers none), else in turns of BUSY_STEPS steps every BUSY_TURN_MS.
   */
  yieldToRequests(): Promise<void>;
}

/**
 * Requests first. A process that answers requests and also works the queue (`npm start`'s processes deliver
 * webhooks) shares one event loop between them: a bulk create of 10,000 objects with a webhook would make every
 * request wait behind 10,000 deliveries. Background work asks `yieldToRequests()` before each step (a delivery): it
 * goes on at once in a process that has answered no request for QUIET_MS, or that answers none (`manage worker`);
 * while requests keep the process busy, BUSY_STEPS waiting steps go on every BUSY_TURN_MS, in the order they asked. The
 * queue keeps what waits, durably; it drains once the requests let up.
 */
export class RequestLoad implements RequestLoadPort {
  private underWay = 0;
  private lastEnded = -Infinity;
  private nextTurn = 0;
  private readonly waiting: (() => void)[] = [];
  private timer?: NodeJS.Timeout;
  /** When the timer fires (`now()`'s clock). */
  private timerAt = Infinity;

  constructor(private readonly onError: (err: unknown) => void, private readonly now: () => number = () => performance.now()) {}

  /** Counts the requests `server` answers, each until its response ended or its client went away. */
  count(server: Server): void {
    server.on('request', guarded((_req, res: ServerResponse) => {
      this.underWay += 1;
      res.once('close', guarded(() => {
        this.underWay -= 1;
        this.lastEnded = this.now();
        if (!this.underWay && this.waiting.length) this.wake(QUIET_MS);
      }, this.onError));
    }, this.onError));
  }

  yieldToRequests(): Promise<void> {
    if (!this.waiting.length && this.idle(this.now())) return Promise.resolve();
    return new Promise((ok) => {
      this.waiting.push(ok);
      this.release();
    });
  }

  private idle(now: number): boolean {
    return this.underWay === 0 && now - this.lastEnded >= QUIET_MS;
  }

  /** Lets every waiting step go when idle, else the next BUSY_STEPS when their turn came; then waits for the next change. */
  private readonly release = (): void => {
    const now = this.now();
    if (this.idle(now)) {
      for (const go of this.waiting.splice(0)) go();
      return;
    }
    if (now >= this.nextTurn) {
      this.nextTurn = now + BUSY_TURN_MS;
      for (const go of this.waiting.splice(0, BUSY_STEPS)) go();
    }
    if (!this.waiting.length) return;
    const quiet = this.underWay ? Infinity : this.lastEnded + QUIET_MS - now;
    this.wake(Math.min(this.nextTurn - now, quiet));
  };

  /** Has `release` run in `ms`, unless it runs sooner already. */
  private wake(ms: number): void {
    const at = this.now() + Math.max(1, ms);
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.release();
    }, at - this.now());
  }
}
