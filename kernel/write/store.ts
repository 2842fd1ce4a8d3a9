import type { Knex } from '@mikro-orm/knex';
import type { Model } from '../model/model.js';
import type { Row } from '../base/types.js';
import { inBatches, insertAll } from '../base/batches.js';

/**
 * Inserts the rows of a write in one statement (`insertAll`) and returns them in the order given. PostgreSQL does not
 * promise RETURNING in the order of the rows, but it takes them one after the other, each drawing its id from the
 * sequence as it goes: ids rise in the order given, so the rows answered are put back in that order by id.
 */
export async function insertRows(db: Knex.Transaction, model: Model, rows: Row[]): Promise<Row[]> {
  const json = model.fields.flatMap((f) => f.columns()).filter((c) => c.type === 'json' || c.type === 'jsonb').map((c) => c.name);
  const inserted = await insertAll<Row>(db, model.table, rows, { returning: ['*'], now: ['created', 'last_updated'], json });
  return inserted.sort((a, b) => (a.id as number) - (b.id as number));
}

/**
 * Updates the rows of a write in one statement: each column is set per row with a CASE on the id, rows that
 * do not write a column keep theirs. Returns the stored rows in the order of `changes`.
 */
export async function updateRows(db: Knex.Transaction, model: Model, changes: { id: number; columns: Row }[]): Promise<Row[]> {
  const byId = new Map<number, Row>();
  const width = new Set(changes.flatMap((c) => Object.keys(c.columns))).size * 2 + 1;
  for (const chunk of inBatches(changes, width)) {
    const set: Record<string, Knex.Raw | Knex.Value> = { last_updated: db.fn.now() };
    for (const column of new Set(chunk.flatMap((c) => Object.keys(c.columns)))) {
      const writing = chunk.filter((c) => column in c.columns);
      const cases = writing.map(() => 'when ? then ?').join(' ');
      set[column] = db.raw(`case ?? ${cases} else ?? end`, ['t.id', ...writing.flatMap((c) => [c.id, c.columns[column] as Knex.Value]), `t.${column}`]);
    }
    const rows = (await db(`${model.table} as t`).whereIn('t.id', chunk.map((c) => c.id)).update(set).returning('t.*')) as Row[];
    for (const row of rows) byId.set(row.id as number, row);
  }
  return changes.map((c) => byId.get(c.id)!);
}
