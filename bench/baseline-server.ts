import { knex } from '@mikro-orm/knex';
import { startBaseline, tenantList } from './baseline.js';

/**
 * The tenant list's hand-written baseline as a process of its own, as Patchbay's server is: what the bench's cold
 * start and memory rows compare against. DATABASE_URL names the database; prints its URL once it listens.
 */
const db = knex({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 10 } });
const server = await startBaseline(tenantList(db, false));
process.stdout.write(`${server.url}\n`);
process.once('SIGTERM', () => void server.close().then(() => db.destroy()).then(() => process.exit(0)));
