import type { Knex } from '@mikro-orm/knex';
import { quoteIdentifier } from './identifiers.js';

/** Bind parameters per statement, well under PostgreSQL's limit of 65,535. */
const MAX_PARAMETERS = 30_000;

/** `items` in groups small enough that a statement binding `perItem` values for each stays under the limit. */
export function inBatches<T>(items: T[], perItem: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, perItem)));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** How `insertAll` writes. */
export interface InsertOptions {
  /** Columns answered for every row inserted. */
  returning?: string[];
  /** Columns stamped with the transaction's time (`created`, `last_updated`). */
  now?: string[];
  /** Columns whose values are JSON text already (a json field's stored form): sent as they are, not as strings. */
  json?: string[];
  /** The columns of a unique index: a row clashing there overwrites the stored row's other columns. */
  upsert?: string[];
  /**
   * Foreign keys by column, each the table whose `id` it names: a row whose key names no row there is left out (a
   * row deleted since the caller read it), where the foreign key would fail the whole statement.
   */
  existing?: Record<string, string>;
}

/**
 * A query drawing `?` ids (its one binding) from the sequence of `table`'s id, as one array (`ids`): for a statement
 * that inserts rows and the rows referring to them (a cable path and its nodes). The sequence is looked up once
 * (`offset 0` keeps the lookup from being inlined into every row), so each id costs one `nextval`.
 */
export function drawnIds(table: string): string {
  return `select array_agg(nextval(s.seq)::int) as ids from (select pg_get_serial_sequence('${table.replace(/'/g, "''")}', 'id')::regclass as seq offset 0) s, generate_series(1, ?)`;
}

/** Consecutive rows writing the same columns (an undefined value writes none), in order. */
function runsOfColumns(rows: Record<string, unknown>[]): { columns: string[]; rows: Record<string, unknown>[] }[] {
  const runs: { shape: string; columns: string[]; rows: Record<string, unknown>[] }[] = [];
  for (const row of rows) {
    const columns = Object.keys(row).filter((c) => row[c] !== undefined);
    const shape = columns.join(',');
    const last = runs[runs.length - 1];
    if (last?.shape === shape) last.rows.push(row);
    else runs.push({ shape, columns, rows: [row] });
  }
  return runs;
}

/** Whether every row gives `column` the same plain value (text, number, flag or null; JSON text of a `json` column). */
function sameInAll(rows: Record<string, unknown>[], column: string): boolean {
  const first = rows[0][column];
  if (first !== null && typeof first === 'object') return false;
  for (let i = 1; i < rows.length; i++) if (rows[i][column] !== first) return false;
  return true;
}

/** The rows as one JSON array of their `columns`, JSON text of the `json` columns kept as it is. */
function encodeRows(rows: Record<string, unknown>[], columns: string[], json: Set<string>): string {
  const keys = columns.map((c) => `${JSON.stringify(c)}:`);
  const raw = columns.map((c) => json.has(c));
  const parts: string[] = [];
  for (const row of rows) {
    let text = '{';
    for (let i = 0; i < columns.length; i++) {
      const value = row[columns[i]];
      text += `${i ? ',' : ''}${keys[i]}${raw[i] && typeof value === 'string' ? value : JSON.stringify(value ?? null)}`;
    }
    parts.push(`${text}}`);
  }
  return `[${parts.join(',')}]`;
}

/**
 * Inserts `rows` into `table`: one statement for consecutive rows writing the same columns (usually all of them),
 * whatever their number. The rows travel as one JSON parameter read by `json_populate_recordset` in the table's own
 * column types, so the text depends only on the columns (prepared once) and nothing is compiled or bound per value.
 * A plain value every row of several gives one column (the writer of a bulk write's change records, a default
 * status) travels once, in a record read by `json_populate_record`: the rows carry only what differs between them.
 * Values are as JSON carries them (arrays become PostgreSQL arrays); columns a row leaves out take their defaults.
 * Returns the `returning` columns of every row, run after run.
 */
export async function insertAll<R = Record<string, unknown>>(
  db: Knex | Knex.Transaction, table: string, rows: Record<string, unknown>[], options: InsertOptions = {},
): Promise<R[]> {
  const now = new Set(options.now);
  const json = new Set(options.json);
  const out: R[] = [];
  for (const run of runsOfColumns(rows)) {
    const given = run.columns.filter((c) => !now.has(c));
    const shared = new Set(run.rows.length > 1 ? given.filter((c) => sameInAll(run.rows, c)) : []);
    const written = [...given, ...now];
    const values = [...given.map((c) => `${shared.has(c) ? 's' : 'v'}.${quoteIdentifier(c)}`), ...[...now].map(() => 'now()')];
    const upsert = options.upsert
      ? ` on conflict (${options.upsert.map(quoteIdentifier).join(', ')}) do update set ${written.filter((c) => !options.upsert!.includes(c)).map((c) => `${quoteIdentifier(c)} = excluded.${quoteIdentifier(c)}`).join(', ')}`
      : '';
    const returning = options.returning ? ` returning ${options.returning.map((c) => (c === '*' ? c : quoteIdentifier(c))).join(', ')}` : '';
    const record = shared.size ? `, json_populate_record(null::${quoteIdentifier(table)}, ?::json) as s` : '';
    const existing = Object.entries(options.existing ?? {}).filter(([c]) => given.includes(c))
      .map(([c, target]) => `exists (select from ${quoteIdentifier(target)} x where x.id = ${shared.has(c) ? 's' : 'v'}.${quoteIdentifier(c)})`);
    const where = existing.length ? ` where ${existing.join(' and ')}` : '';
    const sql = `insert into ${quoteIdentifier(table)} (${written.map(quoteIdentifier).join(', ')}) select ${values.join(', ')} from json_populate_recordset(null::${quoteIdentifier(table)}, ?::json) as v${record}${where}${upsert}${returning}`;
    const bindings = [encodeRows(run.rows, given.filter((c) => !shared.has(c)), json)];
    if (shared.size) bindings.push(encodeRows(run.rows.slice(0, 1), [...shared], json).slice(1, -1));
    const { rows: inserted } = (await db.raw(sql, bindings)) as { rows: R[] };
    out.push(...inserted);
  }
  return out;
}
