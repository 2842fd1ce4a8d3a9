import type { Knex } from '@mikro-orm/knex';

/** The triggers that keep `patchbay_row_count` (see its migration), by the statement they follow. */
const TRIGGERS = [
  ['insert', 'referencing new table as patchbay_rows'],
  ['delete', 'referencing old table as patchbay_rows'],
  ['truncate', ''],
] as const;

/**
 * Under the migrations' lock, in their transaction: gives each of `tables` the counting triggers where it has none
 * yet (a new table, or one a migration made again), its count seeded while writes wait (`share row exclusive`), so
 * that no row is counted twice or missed. Answers the tables counted.
 */
export async function ensureRowCounts(trx: Knex.Transaction, tables: string[]): Promise<Set<string>> {
  const counted = new Set((await trx.raw(
    `select c.relname from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where t.tgname = 'patchbay_count_insert' and c.relnamespace = current_schema()::regnamespace and c.relname = any(?)`,
    [tables],
  )).rows.map((r: { relname: string }) => r.relname) as string[]);
  for (const table of tables.filter((t) => !counted.has(t))) {
    const name = `"${table}"`;
    await trx.raw(`lock table ${name} in share row exclusive mode`);
    for (const [event, transition] of TRIGGERS) {
      await trx.raw(`create trigger patchbay_count_${event} after ${event} on ${name} ${transition} for each statement execute function patchbay_count_${event}()`);
    }
    // Rows of an oid a dropped table left behind, should PostgreSQL give this table the same one.
    await trx.raw('delete from patchbay_row_count where table_oid = ?::regclass', [name]);
    await trx.raw(`insert into patchbay_row_count select ?::regclass, count(*) from ${name}`, [name]);
    counted.add(table);
  }
  return counted;
}

/**
 * The counters of the tables `ensureRowCounts` gave triggers: a list's total in constant time, exact in the reading
 * statement's snapshot (a write not yet committed is in neither its rows nor its deltas).
 */
export class RowCounts {
  private timer?: NodeJS.Timeout;

  constructor(private readonly tables: ReadonlySet<string>) {}

  /** `select count`: `table`'s count from its counters, or undefined when it has none (count the rows). */
  of(db: Knex, table: string): Knex.QueryBuilder | undefined {
    if (!this.tables.has(table)) return undefined;
    return db('patchbay_row_count').whereRaw('table_oid = ?::regclass', [`"${table}"`]).select(db.raw('coalesce(sum(delta), 0) as count'));
  }

  /** Every `seconds`, folds each table's deltas into one row on `db` (the background pool), so that reading stays short. */
  start(db: Knex, seconds: number, onError: (err: unknown) => void): void {
    this.timer = setInterval(() => void compactRowCounts(db).catch(onError), seconds * 1000);
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/**
 * Folds each table's deltas into one row, in one statement: a delta written meanwhile is not in the statement's
 * snapshot and stays, so every reader sees the same sums before and after.
 */
export async function compactRowCounts(db: Knex): Promise<void> {
  await db.raw(`with folded as (
    delete from patchbay_row_count where table_oid in (select table_oid from patchbay_row_count group by 1 having count(*) > 1)
    returning table_oid, delta
  ) insert into patchbay_row_count select table_oid, sum(delta) from folded group by 1`);
}
