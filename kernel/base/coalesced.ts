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

  /**
   * `write` stores the items of one flush (one statement, say), `most` of them at the most; its failure is each of
   * their `add`s'.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<unknown>,
    private readonly most = Infinity,
  ) {}

  /** Has `item` written with the next flush; resolves once it was. */
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
      const taken = this.waiting.splice(0, this.most);
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
