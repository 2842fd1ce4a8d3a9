import { createHash } from 'node:crypto';

/** A node-postgres client as the pool hands it over: what naming its statements needs. */
export interface PgConnection {
  query(config: unknown, values?: unknown, callback?: unknown): unknown;
  __knex__disposed?: unknown;
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
 * connection prepares it once and PostgreSQL keeps its plan; at most `limit` texts are named, so what each
 * connection keeps is bounded.
 *
 * A schema change by another process (a rolling upgrade's migration) makes a kept plan of `select *` fail with
 * "cached plan must not change result type": that connection is retired, and the error is one writes retry and
 * reads answer with 503 (`isStalePlan`).
 */
export class PreparedStatements {
  private readonly names = new Map<string, string>();
  private once = new Set<string>();

  constructor(private readonly limit = 500) {}

  /** The name `text` runs under, or undefined to send it unnamed. */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known) return known;
    if (this.names.size >= this.limit || text.length > MAX_TEXT || text.includes(MANY_PARAMETERS) || !KEPT.test(text)) return undefined;
    if (!this.once.has(text)) {
      if (this.once.size >= ONCE_LIMIT) this.once = new Set();
      this.once.add(text);
      return undefined;
    }
    this.once.delete(text);
    const name = `pb_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    this.names.set(text, name);
    return name;
  }

  /** Runs the statements `connection` is given under their names (the pool calls it for every new connection). */
  attach(connection: PgConnection): void {
    const query = connection.query.bind(connection);
    connection.query = (config: unknown, values?: unknown, callback?: unknown) => {
      const text = typeof config === 'object' && config !== null && !('name' in config) ? (config as { text?: unknown }).text : undefined;
      const name = typeof text === 'string' && typeof values === 'function' ? this.nameOf(text) : undefined;
      if (!name) return query(config, values, callback);
      return query({ ...(config as object), name }, (err: (Error & { code?: string }) | null, result?: unknown) => {
        // Its kept plans are out of date: the pool replaces the connection.
        if (err && isStalePlan(err)) connection.__knex__disposed = 'a prepared statement outlived a change of the schema';
        (values as Callback)(err, result);
      });
    };
  }
}

/** Whether `err` is PostgreSQL refusing a kept plan after a schema change (which a fresh connection does not meet). */
export function isStalePlan(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: string; message?: string };
  return code === '0A000' && /cached plan must not change result type/.test(message ?? '');
}
