import type { Db } from '../base/types.js';

/** A transaction's statements written behind: the promises of their outcomes, and the first that failed. */
interface Behind {
  pending: Promise<void>[];
  failed?: { error: unknown };
}

const transactions = new WeakMap<Db, Behind>();

/** Lets `trx` take statements written behind; its statements must run in the order they are sent (`oneAtATime`). */
export function allowWriteBehind(trx: Db): void {
  transactions.set(trx, { pending: [] });
}

/**
 * Sends a statement whose answer the caller does not need (change records, tag links, a cable's ends) without
 * waiting for it: JavaScript goes on while PostgreSQL runs it. The transaction's later statements queue behind it on
 * its one connection, so they see what it wrote. The write waits for it before committing (`settleWrites`), and its
 * failure is the write's. Outside a transaction that allows it, the statement is waited for.
 */
export function writeBehind(db: Db, statement: PromiseLike<unknown>): Promise<void> {
  const behind = transactions.get(db);
  // `then` now, not on a later tick: a knex builder sends its statement when `then` is called.
  const outcome = Promise.resolve(statement.then(() => undefined));
  if (!behind) return outcome;
  behind.pending.push(outcome.catch((error: unknown) => void (behind.failed ??= { error })));
  return Promise.resolve();
}

/** Waits for the statements written behind on `trx`; throws the first that failed. */
export async function settleWrites(trx: Db): Promise<void> {
  const behind = transactions.get(trx);
  if (!behind) return;
  await Promise.all(behind.pending.splice(0));
  if (behind.failed) throw behind.failed.error;
}

/**
 * What made a write on `trx` fail: the first statement written behind that failed, if one did (the statements after
 * it only found the transaction aborted), else `error`.
 */
export function causeOfFailure(trx: Db, error: unknown): unknown {
  const failed = transactions.get(trx)?.failed;
  return failed ? failed.error : error;
}
