interface Waiting<T> {
  item: T;
  done: () => void;
  fail: (err: unknown) => void;
}

/**
 * Writes items with one statement per flush: what is added while a statement runs waits for the next, which takes
 * all of it. Each `add` resolves once its item is written (or rejects with the statement's error).
 */
export class Coalesced<T> {
  private waiting: Waiting<T>[] = [];
  private flushing = false;

  constructor(private readonly write: (items: T[]) => Promise<unknown>) {}

  add(item: T): Promise<void> {
    return new Promise((done, fail) => {
      this.waiting.push({ item, done, fail });
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    // Items added in the same turn (sends started together) share the first statement.
    await Promise.resolve();
    while (this.waiting.length) {
      const taken = this.waiting.splice(0);
      try {
        await this.write(taken.map((w) => w.item));
        for (const w of taken) w.done();
      } catch (err) {
        for (const w of taken) w.fail(err);
      }
    }
    this.flushing = false;
  }
}

/**
 * Runs `work` for each item in order, at most `limit` at once. A failure stops the items not started yet; the ones
 * under way end first, then the first failure is thrown.
 */
export async function eachAtMost<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item).catch((err: unknown) => {
        next = items.length;
        throw err;
      });
    }
  };
  const ended = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, lane));
  const failed = ended.find((e): e is PromiseRejectedResult => e.status === 'rejected');
  if (failed) throw failed.reason;
}
