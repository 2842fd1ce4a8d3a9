import type { Knex } from '@mikro-orm/knex';
import type { Actor } from './context.js';
import type { Gate } from './gate.js';
import { WriteSession, type SessionServices } from './session.js';

/** Who a write acts for: the change log's actor, the permissions it passes and where rendered URLs point. */
export interface Writer {
  actor: Actor;
  gate: Gate;
  baseUrl?: string;
}

/** Runs write sessions: one transaction each; events and follow-up work after the commit. */
export class WriteRunner {
  constructor(private readonly knex: Knex, private readonly services: SessionServices) {}

  async run<T>(writer: Writer, work: (session: WriteSession) => Promise<T>): Promise<T> {
    await writer.gate.prepare();
    let session: WriteSession | undefined;
    const result = await this.knex.transaction(async (trx) => {
      session = new WriteSession(trx, this.services, writer.actor, writer.gate, writer.baseUrl);
      return work(session);
    });
    await session!.committed();
    return result;
  }
}
