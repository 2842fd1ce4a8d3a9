/** One key of a round: the promise every caller asking for it gets, and how to settle it. */
interface Entry<K, V> {
  key: K;
  promise: Promise<V>;
  resolve(value: V): void;
  reject(err: unknown): void;
}

interface Round<K, V> {
  load: (keys: K[]) => Promise<V[]>;
  /** By key: an id as it is, any other key as its JSON. */
  entries: Map<number | string, Entry<K, V>>;
}

/**
 * Gathers the keys callers running side by side ask one loader for (a write's items as they parse, a page's
 * count fields as they prepare), and loads them in one query once every caller is waiting (after the current
 * turn of the event loop): N callers, one query per round.
 */
export class Batcher {
  private readonly rounds = new Map<string, Round<unknown, unknown>>();

  load<K, V>(loader: string, key: K, load: (keys: K[]) => Promise<V[]>): Promise<V> {
    let round = this.rounds.get(loader) as Round<K, V> | undefined;
    if (!round) {
      const fresh: Round<K, V> = { load, entries: new Map() };
      this.rounds.set(loader, fresh as Round<unknown, unknown>);
      setImmediate(() => void this.flush(loader, fresh));
      round = fresh;
    }
    // A bulk write asks for thousands of ids: they need no JSON.
    const id = typeof key === 'number' ? key : JSON.stringify(key);
    let entry = round.entries.get(id);
    if (!entry) {
      let resolve!: Entry<K, V>['resolve'];
      let reject!: Entry<K, V>['reject'];
      const promise = new Promise<V>((ok, fail) => ((resolve = ok), (reject = fail)));
      entry = { key, promise, resolve, reject };
      round.entries.set(id, entry);
    }
    return entry.promise;
  }

  private async flush<K, V>(loader: string, round: Round<K, V>): Promise<void> {
    // Keys asked for from now on belong to the next round.
    this.rounds.delete(loader);
    const entries = [...round.entries.values()];
    try {
      const values = await round.load(entries.map((e) => e.key));
      entries.forEach((e, i) => e.resolve(values[i]));
    } catch (err) {
      for (const e of entries) e.reject(err);
    }
  }
}
