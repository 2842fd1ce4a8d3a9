import type { ValueSchema } from '../model/description.js';
import type { Knex } from '@mikro-orm/knex';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { Db } from '../base/types.js';
import { FilterError, ParamError } from './errors.js';
import { cmp, not, or, type FilterNode, type Lookup } from './tree.js';
import { parseBoolean, parseWholeNumber } from './values.js';

/** What a query-string filter needs besides its values. */
export interface FilterContext {
  db: Db;
  registry: ModelRegistry;
}

/** One query-string filter (`name`, plus the lookup suffixes it accepts as `name__<suffix>`). */
export interface QueryFilter {
  suffixes: readonly string[];
  /** What one value of the bare filter is, for the OpenAPI schema; unset: what the field of the same name takes, else text. */
  value?: ValueSchema;
  /** Builds the condition for `suffix` ('' for the bare name) and the repeated values; throws ParamError. */
  build(suffix: string, values: string[], ctx: FilterContext): FilterNode | Promise<FilterNode>;
}

/**
 * The query-string filters NetBox derives for each kind of field, for field kinds (the kernel's and plugins')
 * to offer. Different parameters AND, repeated values OR, negated suffixes exclude.
 */

const STRING_SUFFIXES = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty', 'regex', 'iregex'] as const;
const ORDERED_SUFFIXES = ['n', 'lt', 'lte', 'gt', 'gte', 'empty'] as const;
const TEXT: Record<string, Lookup> = { ic: 'icontains', isw: 'istartswith', iew: 'iendswith', ie: 'iexact', regex: 'regex', iregex: 'iregex' };

/** The last of repeated values, for filters that take one. */
export function lastValue(values: string[]): string {
  return values[values.length - 1];
}

/** Exact match of any value (repeats OR); negated: none of them. */
export function anyOf(path: string[], values: unknown[], negate: boolean): FilterNode {
  const node = values.length === 1 ? cmp(path, 'exact', values[0]) : cmp(path, 'in', values);
  return negate ? not(node) : node;
}

/** A regular expression PostgreSQL will evaluate: its syntax checked now, so a bad one is a 400, not a failed query. */
export async function checkRegex(db: Db, pattern: string): Promise<void> {
  try {
    await db.raw(`select '' ~ ?`, [pattern]);
  } catch (err) {
    throw new ParamError(`Invalid regular expression: ${(err as Error).message.split(' - ').pop()}`);
  }
}

/**
 * Text and choices: exact (case-sensitive) and the string lookups with their negations; `check` vets exact values
 * and `convert` turns them into the column's type (an integer choice).
 */
export function textFilter(path: string[], check: (value: string) => void = () => {}, convert: (value: string) => unknown = (v) => v): QueryFilter {
  return {
    suffixes: STRING_SUFFIXES,
    async build(suffix, values, ctx) {
      if (suffix === '' || suffix === 'n') {
        values.forEach(check);
        return anyOf(path, values.map(convert), suffix === 'n');
      }
      if (suffix === 'empty') return cmp(path, 'empty', parseBoolean(lastValue(values)));
      const negated = suffix.startsWith('n') && suffix !== 'n';
      const lookup = TEXT[negated ? suffix.slice(1) : suffix];
      if (lookup === 'regex' || lookup === 'iregex') for (const v of values) await checkRegex(ctx.db, v);
      const node = or(values.map((v) => cmp(path, lookup, v)));
      return negated ? not(node) : node;
    },
  };
}

/** Numbers, dates and datetimes: exact, `n`, the comparisons and `empty`; `parse` reads one value or throws a ParamError. */
export function orderedFilter(path: string[], parse: (value: string) => unknown): QueryFilter {
  return {
    suffixes: ORDERED_SUFFIXES,
    build(suffix, values) {
      if (suffix === 'empty') return cmp(path, 'isnull', parseBoolean(lastValue(values)));
      const parsed = values.map(parse);
      if (suffix === '' || suffix === 'n') return anyOf(path, parsed, suffix === 'n');
      return or(parsed.map((v) => cmp(path, suffix, v)));
    },
  };
}

/** A boolean: `true` or `false` (the last value given). */
export function booleanFilter(path: string[]): QueryFilter {
  return { suffixes: [], value: { type: 'boolean' }, build: (_s, values) => cmp(path, 'exact', parseBoolean(lastValue(values))) };
}

/**
 * The ids of the rows of `table` whose `column` is one of `keys`, for filters naming objects: a key naming none
 * is a 400 (django-filter's "Select a valid choice").
 */
export async function existingIds(db: Db, table: string, column: string, keys: Knex.Value[]): Promise<number[]> {
  const rows = (await db(table).select('id', `${column} as key`).whereIn(column, keys)) as { id: number; key: unknown }[];
  const missing = keys.find((k) => !rows.some((r) => String(r.key) === String(k)));
  if (missing !== undefined) throw new ParamError(`Select a valid choice. ${String(missing)} is not one of the available choices.`);
  return rows.map((r) => r.id);
}

/** The attribute that names a related object in `?<relation>=<value>`: slug, else username, else name. */
export function naturalKey(target: Model): string | undefined {
  return ['slug', 'username', 'name'].find((n) => target.field(n));
}

/**
 * `<relation>_id` and `<relation>` (by `by`, a natural key) filters. Values must name existing objects (NetBox's
 * "Select a valid choice"); `null` selects objects without one; with `tree`, a node matches its descendants too.
 */
export function relationFilter(path: string[], target: Model, by: 'id' | string, tree: boolean): QueryFilter {
  return {
    suffixes: ['n'],
    value: { type: by === 'id' ? 'integer' : 'string' },
    async build(suffix, values, ctx) {
      const wantsNull = values.includes('null');
      const given = values.filter((v) => v !== 'null');
      const field = by === 'id' ? undefined : target.field(by);
      const keys = given.map((v) => {
        if (!field) return parseWholeNumber(v);
        try {
          return field.filterValue(v, 'exact') as Knex.Value;
        } catch (err) {
          if (err instanceof FilterError) throw new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);
          throw err;
        }
      });
      let ids: number[] = [];
      if (keys.length) {
        const rows = (await ctx.db(target.table).select('id', `${by} as key`).whereIn(by, keys)) as { id: number; key: unknown }[];
        const found = new Set(rows.map((r) => String(r.key)));
        const missing = keys.findIndex((k) => !found.has(String(k)));
        if (missing >= 0) throw new ParamError(`Select a valid choice. ${given[missing]} is not one of the available choices.`);
        ids = rows.map((r) => r.id);
      }
      const parts: FilterNode[] = [];
      if (ids.length) parts.push(cmp(path, tree ? 'tree' : 'in', ids));
      if (wantsNull) parts.push(cmp(path, 'isnull', true));
      const node = or(parts);
      return suffix === 'n' ? not(node) : node;
    },
  };
}
