import type { Knex } from '@mikro-orm/knex';

type Query = (connection: unknown, statement: unknown) => Promise<unknown>;

/**
 * Queues a transaction's statements on its one connection. A write's loaders and a page's fields run side by side;
 * outside a transaction each takes a pooled connection, inside one they share it, and node-postgres is retiring
 * overlapping queries on a client. Returns the transaction it was given.
 */
export function oneAtATime(trx: Knex.Transaction): Knex.Transaction {
  // The dialect's `_query` sends a statement; knex's checks (a completed transaction) stay in front of the queue.
  const client = trx.client as unknown as { _query: Query };
  const query = client._query.bind(client);
  let tail: Promise<unknown> = Promise.resolve();
  client._query = (connection, statement) => {
    const run = tail.then(() => query(connection, statement));
    tail = run.catch(() => undefined);
    return run;
  };
  return trx;
}
