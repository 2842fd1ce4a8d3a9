import type { Knex } from '@mikro-orm/knex';

/** Bind parameters per statement, well under PostgreSQL's limit of 65,535. */
const MAX_PARAMETERS = 30_000;

/** `items` in groups small enough that a statement binding `perItem` values for each stays under the limit. */
export function inBatches<T>(items: T[], perItem: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, perItem)));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Inserts `rows` into `table` in as few statements as PostgreSQL's parameter limit allows (one for a usual write),
 * returning the `returning` columns of every row, batch after batch.
 */
export async function insertAll<R = Record<string, unknown>>(db: Knex | Knex.Transaction, table: string, rows: Record<string, unknown>[], returning?: string[]): Promise<R[]> {
  const width = new Set(rows.flatMap((r) => Object.keys(r))).size;
  const out: R[] = [];
  for (const batch of inBatches(rows, width)) {
    const query = db(table).insert(batch);
    if (returning) out.push(...((await query.returning(returning)) as R[]));
    else await query;
  }
  return out;
}
