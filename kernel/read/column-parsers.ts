import pg from 'pg';
import type { Reader } from './reader.js';

/** Turns a column's value as PostgreSQL's text (`value::text`) into what node-postgres reads it as. */
export type ColumnParser = (text: string) => unknown;

type Parsers = Map<string, ColumnParser>;

/** node-postgres's type parsers (`pg.types`, or a pool's `TypeOverrides`). */
interface TypeParsers {
  getTypeParser(oid: number, format: 'text'): ColumnParser;
}

/** Per reader: each table's columns' parsers, by table. */
const tablesByReader = new WeakMap<Reader, Map<string, Promise<Parsers>>>();

function tablesOf(reads: Reader): Map<string, Promise<Parsers>> {
  let tables = tablesByReader.get(reads);
  if (!tables) tablesByReader.set(reads, (tables = new Map()));
  return tables;
}

/** The columns' types of `tables` from the catalog, in one statement; a table missing from it has no columns here. */
async function readTypes(reads: Reader, tables: string[]): Promise<Map<string, Parsers>> {
  const { rows } = (await reads.db.raw(
    `select t.name as "table", a.attname as "column", a.atttypid::int as type from unnest(?::text[]) as t(name)
     join pg_attribute a on a.attrelid = to_regclass(t.name) where a.attnum > 0 and not a.attisdropped`,
    [tables],
  )) as { rows: { table: string; column: string; type: number }[] };
  // The pool's own parsers, where its connections were given some (dates are kept as PostgreSQL's text), else pg's.
  const types = (reads.db.client as { connectionSettings?: { types?: TypeParsers } }).connectionSettings?.types ?? (pg.types as TypeParsers);
  const found = new Map<string, Parsers>(tables.map((table) => [table, new Map()]));
  for (const { table, column, type } of rows) found.get(table)!.set(column, types.getTypeParser(type, 'text'));
  return found;
}

/** Reads the parsers of every table of `tables` at once (a server does at start, before any request). */
export async function loadColumnParsers(reads: Reader, tables: string[]): Promise<void> {
  const found = await readTypes(reads, tables);
  for (const [table, parsers] of found) tablesOf(reads).set(table, Promise.resolve(parsers));
}

/**
 * The parser of each column of `table`, by name: the pool's parser of the column's type, so that a value
 * selected as text (in a JSON aggregate, say) reads as the column selected itself would. Read from the catalog
 * when the table was not loaded at start.
 */
export function columnParsers(reads: Reader, table: string): Promise<Parsers> {
  const tables = tablesOf(reads);
  let parsers = tables.get(table);
  if (!parsers) {
    parsers = readTypes(reads, [table]).then((found) => found.get(table)!);
    tables.set(table, parsers);
    parsers.catch(() => tables.delete(table));
  }
  return parsers;
}
