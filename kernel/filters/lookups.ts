import type { Knex } from '@mikro-orm/knex';
import { FilterError } from './errors.js';

/** The SQL of one comparison: adds a condition on `column` (qualified, e.g. `t.name`) to `qb`. */
export type LookupSql = (qb: Knex.QueryBuilder, column: string, value: unknown) => void;

/** The comparisons a field kind offers, by lookup name (`exact`, `icontains`, a plugin's own `major`...). */
export type Lookups = Readonly<Record<string, LookupSql>>;

/** Text as a LIKE pattern matches it literally (`%`, `_` and `\\` escaped). */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function text(value: unknown, lookup: string): string {
  if (typeof value !== 'string') throw new FilterError(`The '${lookup}' lookup expects text.`, 'value');
  return escapeLike(value);
}

const like = (cs: boolean, pattern: (v: string) => string, lookup: string): LookupSql => (qb, column, value) => {
  qb.whereRaw(`??::text ${cs ? 'like' : 'ilike'} ?`, [column, pattern(text(value, lookup))]);
};

const compare = (op: string): LookupSql => (qb, column, value) => {
  qb.where(column, op, value as Knex.Value);
};

/** Equality, membership and nullness: what every stored value supports. */
export const EQUALITY_LOOKUPS: Lookups = {
  exact: (qb, column, value) => {
    if (value === null) qb.whereNull(column);
    else qb.where(column, value as Knex.Value);
  },
  in: (qb, column, value) => {
    if (!Array.isArray(value)) throw new FilterError("The 'in' lookup expects a list.", 'value');
    if (value.includes(null)) {
      const rest = value.filter((v) => v !== null) as Knex.Value[];
      qb.where((q) => q.whereNull(column).orWhereIn(column, rest));
    } else qb.whereIn(column, value as Knex.Value[]);
  },
  isnull: (qb, column, value) => {
    if (value === true) qb.whereNull(column);
    else qb.whereNotNull(column);
  },
};

/** Order comparisons (numbers, dates, datetimes). */
export const ORDER_LOOKUPS: Lookups = { gt: compare('>'), gte: compare('>='), lt: compare('<'), lte: compare('<=') };

/** Text comparisons; they read any value as text. */
export const TEXT_LOOKUPS: Lookups = {
  iexact: (qb, column, value) => {
    qb.whereRaw('upper(??::text) = upper(?)', [column, String(value)]);
  },
  contains: like(true, (v) => `%${v}%`, 'contains'),
  icontains: like(false, (v) => `%${v}%`, 'icontains'),
  startswith: like(true, (v) => `${v}%`, 'startswith'),
  istartswith: like(false, (v) => `${v}%`, 'istartswith'),
  endswith: like(true, (v) => `%${v}`, 'endswith'),
  iendswith: like(false, (v) => `%${v}`, 'iendswith'),
  // Strings: '' or NULL; other types: NULL.
  empty: (qb, column, value) => {
    if (value === true) qb.where((q) => q.whereNull(column).orWhereRaw(`??::text = ''`, [column]));
    else qb.whereNotNull(column).whereRaw(`??::text <> ''`, [column]);
  },
  regex: (qb, column, value) => {
    qb.whereRaw(`??::text ~ ?`, [column, String(value)]);
  },
  iregex: (qb, column, value) => {
    qb.whereRaw(`??::text ~* ?`, [column, String(value)]);
  },
};

/** What a stored scalar supports: equality, order and text comparisons. */
export const SCALAR_LOOKUPS: Lookups = { ...EQUALITY_LOOKUPS, ...ORDER_LOOKUPS, ...TEXT_LOOKUPS };

/** Lookups whose value is not a value of the field (a flag or a pattern). */
export const FLAG_LOOKUPS: ReadonlySet<string> = new Set(['isnull', 'empty']);
export const PATTERN_LOOKUPS: ReadonlySet<string> = new Set(['iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith', 'regex', 'iregex']);
