import { createHash } from 'node:crypto';

/** A node-postgres client as the pool hands it over: what naming its statements needs. */
export interface PgConnection {
  query(config: unknown, values?: unknown, callback?: unknown): unknown;
  __knex__disposed?: unknown;
  /** node-postgres's protocol connection: the statements this connection has prepared, by name. */
  connection?: { parsedStatements: Record<string, string | undefined> };
}

type Callback = (err: (Error & { code?: string }) | null, result?: unknown) => void;

/** Statements worth keeping: reads and writes of rows, not transaction control, settings or schema changes. */
const KEPT = /^\s*\(?\s*(select|insert|update|delete|with)\b/i;
/** Longer texts, or texts with long lists of parameters (`in ($1, …, $400)`), vary too much to be worth a name. */
const MAX_TEXT = 16_000;
const MANY_PARAMETERS = '$101';
/** Texts seen once, remembered until this many, then forgotten all together. */
const ONCE_LIMIT = 5_000;

/**
 * PostgreSQL parses and plans a statement sent without a name every time: a cable write spent 2.8 ms of its 7 ms of
 * PostgreSQL's time planning. A text the server runs a second time gets a name (a digest of the text), so each
 * connection prepares it once and PostgreSQL keeps its plan. The `limit` texts used last keep their names, and each
 * connection keeps the `limit` statements it used last, deallocating the one used longest ago: what a long-running
 * server runs now is prepared, not what it ran first.
 *
 * A schema change by another process (a rolling upgrade's migration) makes a kept plan of `select *` fail with
 * "cached plan must not change result type": that connection is retired, and the error is one writes retry and
 * reads answer with 503 (`isStalePlan`).
 */
export class PreparedStatements {
  /** Text to name, the text used longest ago first. */
  private readonly names = new Map<string, string>();
  private once = new Set<string>();

  constructor(private readonly limit = 500) {}

  /** The name `text` runs under, or undefined to send it unnamed. */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known) return touch(this.names, text, known);
    if (text.length > MAX_TEXT || text.includes(MANY_PARAMETERS) || !KEPT.test(text)) return undefined;
    if (!this.once.has(text)) {
      if (this.once.size >= ONCE_LIMIT) this.once = new Set();
      this.once.add(text);
      return undefined;
    }
    this.once.delete(text);
    const name = `pb_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    this.names.set(text, name);
    if (this.names.size > this.limit) this.names.delete(this.names.keys().next().value!);
    return name;
  }

  /** Runs the statements `connection` is given under their names (the pool calls it for every new connection). */
  attach(connection: PgConnection): void {
    const query = connection.query.bind(connection);
    /** The names this connection has used, the one used longest ago first. */
    const used = new Map<string, true>();
    connection.query = (config: unknown, values?: unknown, callback?: unknown) => {
      const text = typeof config === 'object' && config !== null && !('name' in config) ? (config as { text?: unknown }).text : undefined;
      const name = typeof text === 'string' && typeof values === 'function' ? this.nameOf(text) : undefined;
      if (!name) return query(config, values, callback);
      touch(used, name, true);
      if (used.size > this.limit) this.release(connection, query, used);
      return query({ ...(config as object), name }, (err: (Error & { code?: string }) | null, result?: unknown) => {
        // Its kept plans are out of date: the pool replaces the connection.
        if (err && isStalePlan(err)) connection.__knex__disposed = 'a prepared statement outlived a change of the schema';
        (values as Callback)(err, result);
      });
    };
  }

  /**
   * Deallocates the statement `connection` used longest ago, queued before the statement that displaces it. The
   * connection forgets it once PostgreSQL has (should that fail, in a failed transaction, it stays prepared).
   */
  private release(connection: PgConnection, query: PgConnection['query'], used: Map<string, true>): void {
    const oldest = used.keys().next().value!;
    used.delete(oldest);
    const parsed = connection.connection?.parsedStatements;
    if (!parsed || parsed[oldest] === undefined) return;
    query({ text: `deallocate ${oldest}` }, (err: Error | null) => {
      if (!err) delete parsed[oldest];
    });
  }
}

/** Marks `key` as used last in `map` (insertion order). */
function touch<V>(map: Map<string, V>, key: string, value: V): V {
  map.delete(key);
  map.set(key, value);
  return value;
}

/** Whether `err` is PostgreSQL refusing a kept plan after a schema change (which a fresh connection does not meet). */
export function isStalePlan(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: string; message?: string };
  return code === '0A000' && /cached plan must not change result type/.test(message ?? '');
}
