/** Adds `value` to the list under `key`, starting one: groups grow in place (copying a group per item is quadratic). */
export function appendTo<K, V>(groups: Map<K, V[]>, key: K, value: V): void {
  const group = groups.get(key);
  if (group) group.push(value);
  else groups.set(key, [value]);
}

/** A value built on first use, then kept. */
export function lazily<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/** A map of at most `size` entries that drops the one used longest ago: what a server keeps of what clients repeat. */
export class RecentlyUsed<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly size: number) {}

  /** The value under `key`, now the most recently used. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    if (!this.entries.has(key) && this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value!);
    this.entries.delete(key);
    this.entries.set(key, value);
  }
}
