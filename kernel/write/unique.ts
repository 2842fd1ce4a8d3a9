import type { Knex } from '@mikro-orm/knex';
import type { Column } from '../model/field.js';
import type { Model, UniqueConstraint } from '../model/model.js';
import type { Db, ErrorMap, Row } from '../base/types.js';
import { appendTo } from '../base/collections.js';
import { elementType } from '../base/typed-arrays.js';

/** One object about to be stored: its row as it will be, and its id when it exists already. */
export interface UniqueCandidate {
  row: Row;
  id?: number;
}

function columnsOf(model: Model, name: string): Column[] {
  const field = model.field(name);
  if (!field) throw new Error(`${model.key}: unique constraint names unknown field ${name}`);
  return field.columns();
}

/** The field a clash is reported under and NetBox's words for it. */
function clash(model: Model, constraint: UniqueConstraint): [string, string] {
  if (constraint.message) return ['__all__', constraint.message];
  if (constraint.fields.length === 1) {
    const field = model.field(constraint.fields[0])!;
    return [field.name, `${model.verboseName} with this ${field.label.toLowerCase()} already exists.`];
  }
  const labels = constraint.fields.map((name) => model.field(name)!.label).join(' and ');
  return ['__all__', `${model.title.charAt(0)}${model.verboseName.slice(1)} with this ${labels} already exists.`];
}

/**
 * Checks every unique constraint of `model` for a whole write at once (one query per constraint): against every
 * stored object but the candidate itself, and among the written ones (the first keeps its values). Stored values
 * of other objects of the same write count too: PostgreSQL checks unique indexes row by row as one statement
 * updates them, so two objects cannot swap values in one write. Returns each candidate's clashes, every one
 * (a name and a slug both taken), worded as NetBox words them.
 */
export async function checkUnique(model: Model, candidates: UniqueCandidate[], db: Db): Promise<ErrorMap[]> {
  const found: ErrorMap[] = candidates.map(() => ({}));
  const checks: { constraint: UniqueConstraint; applies: { c: UniqueCandidate; i: number }[]; keyOf: (row: Row) => string }[] = [];
  const parts: Knex.Sql[] = [];
  for (const constraint of model.unique) {
    const typed = constraint.fields.flatMap((name) => columnsOf(model, name));
    const columns = typed.map((c) => c.name);
    const lower = new Set((constraint.lower ?? []).flatMap((name) => columnsOf(model, name).map((c) => c.name)));
    const whenNull = (constraint.whenNull ?? []).flatMap((name) => columnsOf(model, name).map((c) => c.name));
    const whenSet = (constraint.whenSet ?? []).flatMap((name) => columnsOf(model, name).map((c) => c.name));
    const value = (row: Row, col: string) => (lower.has(col) ? String(row[col]).toLowerCase() : row[col]);
    const applies = candidates
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => !whenNull.some((col) => c.row[col] !== null && c.row[col] !== undefined) && !whenSet.some((col) => c.row[col] === '')
        && !columns.some((col) => c.row[col] === null || c.row[col] === undefined));
    if (!applies.length) continue;
    // The candidates' values as one array per column, joined: a list of row values (`(a, b) in ((…), …)`) of ten
    // thousand candidates exhausts PostgreSQL's stack. Each match names its check and its candidate.
    const given = ['?::integer[]', ...typed.map((c) => `?::${elementType(c.type) ?? c.type}[]`)];
    const matches = typed.map((c, n) => (lower.has(c.name) ? `lower(t.??) = v.c${n}` : `t.?? = v.c${n}`));
    const qb = db(`${model.table} as t`)
      .select(db.raw('?::integer as u', [checks.length]), 't.id', 'v.n')
      .joinRaw(`join unnest(${given.join(', ')}) as v(n, ${typed.map((_, n) => `c${n}`).join(', ')}) on ${matches.join(' and ')}`, [
        applies.map((_, n) => n),
        ...columns.map((col) => applies.map(({ c }) => value(c.row, col)) as Knex.Value),
        ...columns,
      ] as Knex.Value[]);
    for (const col of whenNull) qb.whereNull(`t.${col}`);
    for (const col of whenSet) qb.whereNot(`t.${col}`, '');
    checks.push({ constraint, applies, keyOf: (row) => JSON.stringify(columns.map((col) => String(value(row, col)))) });
    parts.push(qb.toSQL());
  }
  if (!parts.length) return found;
  // Every constraint in one statement.
  const { rows } = (await db.raw(parts.map((p) => `(${p.sql})`).join(' union all '), parts.flatMap((p) => p.bindings))) as {
    rows: { u: number; id: number; n: number }[];
  };
  for (const [u, { constraint, applies, keyOf }] of checks.entries()) {
    const holders = new Map<number, number[]>();
    for (const row of rows) if (row.u === u) appendTo(holders, row.n, row.id);
    const claimed = new Set<string>();
    for (const [n, { c, i }] of applies.entries()) {
      const key = keyOf(c.row);
      if (claimed.has(key) || holders.get(n)?.some((id) => id !== c.id)) {
        const [field, message] = clash(model, constraint);
        (found[i][field] ??= []).push(message);
      }
      claimed.add(key);
    }
  }
  return found;
}
