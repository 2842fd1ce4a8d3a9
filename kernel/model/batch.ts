interface Waiter<V> {
  resolve(value: V): void;
  reject(err: unknown): void;
}

interface Round<K, V> {
  load: (keys: K[]) => Promise<V[]>;
  entries: Map<string, { key: K; waiters: Waiter<V>[] }>;
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
    const id = JSON.stringify(key);
    let entry = round.entries.get(id);
    if (!entry) {
      entry = { key, waiters: [] };
      round.entries.set(id, entry);
    }
    const waiters = entry.waiters;
    return new Promise<V>((resolve, reject) => waiters.push({ resolve, reject }));
  }

  private async flush<K, V>(loader: string, round: Round<K, V>): Promise<void> {
    // Keys asked for from now on belong to the next round.
    this.rounds.delete(loader);
    const entries = [...round.entries.values()];
    try {
      const values = await round.load(entries.map((e) => e.key));
      entries.forEach((e, i) => e.waiters.forEach((w) => w.resolve(values[i])));
    } catch (err) {
      entries.forEach((e) => e.waiters.forEach((w) => w.reject(err)));
    }
  }
}
