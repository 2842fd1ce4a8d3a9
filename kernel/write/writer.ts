import type { Knex } from '@mikro-orm/knex';
import { oneAtATime } from '../db/one-at-a-time.js';
import { isStalePlan } from '../db/prepared.js';
import { allowWriteBehind, causeOfFailure, settleWrites } from '../db/write-behind.js';
import type { Actor } from './context.js';
import type { Gate } from './gate.js';
import { WriteSession, type SessionServices } from './session.js';

/** Who a write acts for: the change log's actor, the permissions it passes and where rendered URLs point. */
export interface Writer {
  actor: Actor;
  gate: Gate;
  baseUrl?: string;
}

/**
 * Conflicts a concurrent write causes, which a fresh attempt resolves: a deadlock, a serialization failure, a lock
 * not granted in time (`lock_timeout`), and a unique violation by an object committed between our check and our
 * insert (the retry's check then words it). So does a prepared statement a schema change outdated (`isStalePlan`):
 * the next attempt runs on a fresh connection.
 */
const RETRIED = new Set(['40P01', '40001', '23505', '55P03']);
const ATTEMPTS = 10;

/**
 * Runs write sessions: one transaction each; events and follow-up work after the commit. A write that lost a
 * race to a concurrent one is run again (at most ATTEMPTS times), so clients do not see deadlocks: the work
 * must keep effects outside the database for `session.afterCommit` (or undo them with `onRollback`).
 */
export class WriteRunner {
  constructor(private readonly knex: Knex, private readonly services: SessionServices) {}

  async run<T>(writer: Writer, work: (session: WriteSession) => Promise<T>): Promise<T> {
    await writer.gate.prepare();
    for (let attempt = 1; ; attempt++) {
      let session: WriteSession | undefined;
      let result: T;
      try {
        result = await this.knex.transaction(async (trx) => {
          allowWriteBehind(oneAtATime(trx));
          session = new WriteSession(trx, this.services, writer.actor, writer.gate, writer.baseUrl, attempt);
          const done = await work(session);
          await session.storeEvents();
          await settleWrites(trx);
          return done;
        });
      } catch (failure) {
        const err = session ? causeOfFailure(session.db, failure) : failure;
        await session?.rolledBack();
        if (attempt >= ATTEMPTS || !(RETRIED.has((err as { code?: string }).code ?? '') || isStalePlan(err))) throw err;
        // A random pause, longer each time (up to a second), lets the other writers finish first.
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * Math.min(1000, 10 * 2 ** attempt)));
        continue;
      }
      await session!.committed();
      return result;
    }
  }
}
