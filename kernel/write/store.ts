import type { Knex } from '@mikro-orm/knex';
import type { Model } from '../model/model.js';
import type { Row } from '../model/types.js';
import { inBatches } from '../db/batches.js';


/**
 * Inserts the rows of a write in one statement (rows giving different columns get the others' defaults) and
 * returns them in the order given. The statement draws their ids first, as an array whose n-th id the n-th row
 * takes, and answers each row with its position (a name no table's column has): PostgreSQL does not promise RETURNING in the order of VALUES.
 */
export async function insertRows(db: Knex.Transaction, model: Model, rows: Row[]): Promise<Row[]> {
  const width = new Set(rows.flatMap((r) => Object.keys(r))).size + 3;
  const out: Row[] = [];
  for (const chunk of inBatches(rows, width)) {
    const numbered = chunk.map((r, i) => ({ ...r, id: db.raw(`(select drawn[${i + 1}] from ids)`), created: db.fn.now(), last_updated: db.fn.now() }));
    const insert = db(model.table).insert(numbered).returning('*').toSQL();
    const { rows: inserted } = (await db.raw(
      `with ids as materialized (select array_agg(nextval(pg_get_serial_sequence(?, 'id'))::int) as drawn from generate_series(1, ?)),
        ins as (${insert.sql})
      select p.n as __drawn_position, ins.* from ins join unnest((select drawn from ids)) with ordinality as p(id, n) on p.id = ins.id`,
      [model.table, chunk.length, ...insert.bindings],
    )) as { rows: (Row & { __drawn_position: string })[] };
    const placed: Row[] = new Array(chunk.length);
    for (const { __drawn_position: position, ...row } of inserted) placed[Number(position) - 1] = row;
    out.push(...placed);
  }
  return out;
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
