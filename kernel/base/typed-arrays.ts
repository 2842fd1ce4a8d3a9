import type { Knex } from '@mikro-orm/knex';
import { isStoredId } from './values.js';

/**
 * The element type an array of one column's values is sent as (`?::text[]`, one parameter for any number of rows),
 * or undefined for columns whose values are arrays themselves. Lengths and precisions stay the column's: casting to
 * `varchar(100)` would cut longer text to size, where a lookup or an insert must see it whole.
 */
export function elementType(type: string): string | undefined {
  if (type.endsWith(']')) return undefined;
  if (type === 'serial') return 'integer';
  return type.replace(/^varchar\(\d+\)$/, 'text').replace(/^numeric\(\d+,\d+\)$/, 'numeric');
}

/**
 * Limits `qb` to rows whose `column` (an id, `t.id` for an alias) is one of `ids`, as one array parameter: the text
 * does not depend on how many there are (prepared once, one value bound). Values that are no stored id match nothing.
 */
export function whereIdIn<T extends Knex.QueryBuilder>(qb: T, column: string, ids: readonly number[]): T {
  return qb.whereRaw('?? = any(?::integer[])', [column, idArray(ids)]) as T;
}

/**
 * `ids` as the text of one `?::integer[]` parameter (node-postgres would quote thousands of integers one by one);
 * values that are no stored id are left out.
 */
export function idArray(ids: readonly number[]): string {
  return `{${ids.filter(isStoredId).join(',')}}`;
}
