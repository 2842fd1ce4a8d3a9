import type { Knex } from '@mikro-orm/knex';
import { applyFilter } from '../filters/compile.js';
import { FilterError } from '../filters/errors.js';
import { EQUALITY_LOOKUPS } from '../filters/lookups.js';
import { and, cmp, type FilterNode } from '../filters/tree.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import { ValidationError } from '../base/types.js';
import { isStoredId } from '../base/values.js';
import type { WriteScope } from './context.js';
import type { Gate } from './gate.js';
import { stored } from '../model/stored.js';
import { appendTo } from '../base/collections.js';
import { elementType, whereIdIn } from '../base/typed-arrays.js';

/** Python's repr of the flattened lookup, as NetBox words its related-object errors. */
function pyRepr(params: Record<string, unknown>): string {
  const value = (v: unknown): string => {
    if (v === null || v === undefined) return 'None';
    if (v === true) return 'True';
    if (v === false) return 'False';
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    return JSON.stringify(v);
  };
  return `{${Object.entries(params).map(([k, v]) => `'${k}': ${value(v)}`).join(', ')}}`;
}

/** `{"site": {"slug": "dc1"}, "name": "R1"}` → `{site__slug: 'dc1', name: 'R1'}`, as Django flattens lookups. */
function flatten(attrs: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(flat, flatten(v as Record<string, unknown>, `${prefix}${k}__`));
    else flat[`${prefix}${k}`] = v;
  }
  return flat;
}

/** What matching one attribute set found: up to two ids, or why the attributes cannot apply. */
type Match = { ids: number[] } | { error: string };

/**
 * Why a flattened attribute path is not a chain of relations ending on a field (NetBox compares attributes for
 * equality: `site__name`, not lookups such as `name__regex`), or undefined when it is.
 */
function pathProblem(model: Model, path: string[], registry: ModelRegistry): string | undefined {
  let current = model;
  for (const [i, name] of path.entries()) {
    const field = current.field(name);
    if (!field) return `Cannot resolve keyword '${name}' into field.`;
    if (i === path.length - 1) return undefined;
    const target = field.describe(registry).find((p) => p.relation)?.relation;
    if (!target) return `Cannot resolve keyword '${path[i + 1]}' into field.`;
    current = registry.get(target);
  }
  return undefined;
}

/** Column types whose values are compared by plain equality, sent as one typed array. */
const ARRAY_TYPES = /^(integer|bigint|smallint|boolean|text)$/;

/** A part of the matching statement: its text and bindings. */
interface Part {
  sql: string;
  bindings: readonly Knex.Value[];
}

/** An attribute set every attribute of which is one of the model's own columns compared for equality. */
interface DirectSet {
  shape: string;
  columns: { name: string; type: string }[];
  values: unknown[];
}

/**
 * The set as direct column comparisons, 'none' when a value cannot equal its column (it matches nothing, as in the
 * filter), or undefined when an attribute needs the filter tree (a relation path, a null, a field's own equality).
 */
function directSet(model: Model, registry: ModelRegistry, paths: { path: string[]; value: unknown }[]): DirectSet | 'none' | undefined {
  const set: DirectSet = { shape: '', columns: [], values: [] };
  for (const { path, value } of paths) {
    if (path.length !== 1 || value === null || typeof value === 'object') return undefined;
    const field = registry.fieldOf(model, path[0]);
    const columns = field?.columns();
    if (!field || columns?.length !== 1 || field.lookups().exact !== EQUALITY_LOOKUPS.exact) return undefined;
    const type = elementType(columns[0].type);
    if (!type || !ARRAY_TYPES.test(type)) return undefined;
    try {
      set.values.push(field.filterValue(value, 'exact'));
    } catch (err) {
      if (err instanceof FilterError && err.kind === 'value') return 'none';
      throw err;
    }
    set.columns.push({ name: columns[0].name, type });
  }
  set.shape = set.columns.map((c) => c.name).join(',');
  return set;
}

/**
 * Sets of one shape (`{slug}` of a hundred tenants' groups) in one part whose text does not depend on their number:
 * the values as typed arrays, each set's matches found through the indexes by a lateral subquery, two at most.
 */
async function directPart(scope: WriteScope, model: Model, sets: { i: number; set: DirectSet }[], gate?: Gate): Promise<Part> {
  const { db } = scope;
  const { columns } = sets[0].set;
  const one = db(`${model.table} as t`).select('t.id');
  for (const [n, c] of columns.entries()) one.whereRaw(`t.?? = v.c${n}`, [c.name]);
  if (gate) await gate.restrict(one, model, 'view');
  const inner = one.limit(2).toSQL();
  const given = ['?::integer[]', ...columns.map((c) => `?::${c.type}[]`)].join(', ');
  const names = ['k', ...columns.map((_, n) => `c${n}`)].join(', ');
  return {
    sql: `select v.k, m.id from unnest(${given}) as v(${names}) cross join lateral (${inner.sql}) as m`,
    bindings: [sets.map(({ i }) => i), ...columns.map((_, n) => sets.map(({ set }) => set.values[n]) as Knex.Value), ...inner.bindings],
  };
}

/**
 * Matches many attribute sets of one model in a single query: sets of plain columns by shape (`directPart`), any
 * other compiled through the filter tree (relation paths become subqueries), joined with UNION ALL.
 */
async function matchAll(scope: WriteScope, model: Model, sets: Record<string, unknown>[], gate?: Gate): Promise<Match[]> {
  const { db, registry } = scope;
  const matches: Match[] = sets.map(() => ({ ids: [] }));
  const parts: Part[] = [];
  const shapes = new Map<string, { i: number; set: DirectSet }[]>();
  for (const [i, attrs] of sets.entries()) {
    const paths = Object.entries(flatten(attrs)).map(([path, value]) => ({ path: path.split('__'), value }));
    const problem = paths.map(({ path }) => pathProblem(model, path, registry)).find(Boolean);
    if (problem) {
      matches[i] = { error: problem };
      continue;
    }
    const set = paths.length ? directSet(model, registry, paths) : undefined;
    if (set === 'none') continue;
    if (set) {
      appendTo(shapes, set.shape, { i, set });
      continue;
    }
    const node: FilterNode = and(paths.map(({ path, value }) => cmp(path, 'exact', value)));
    const qb = db(`${model.table} as t`).select(db.raw('?::integer as k', [i]), 't.id');
    try {
      applyFilter(qb, model, node, { db, registry });
    } catch (err) {
      if (!(err instanceof FilterError)) throw err;
      // A value of the wrong type matches nothing; a name that does not resolve is the client's mistake.
      if (err.kind === 'field') matches[i] = { error: err.message };
      continue;
    }
    if (gate) await gate.restrict(qb, model, 'view');
    parts.push(qb.limit(2).toSQL());
  }
  for (const shaped of shapes.values()) parts.push(await directPart(scope, model, shaped, gate));
  if (parts.length) {
    const { rows } = (await db.raw(parts.map((c) => `(${c.sql})`).join(' union all '), parts.flatMap((c) => c.bindings))) as {
      rows: { k: number; id: number }[];
    };
    for (const row of rows) (matches[Number(row.k)] as { ids: number[] }).ids.push(row.id);
  }
  return matches;
}

/** Whether `id` exists in `model`'s table (and `gate`, when given, lets the writer view it); one query per round of the write. */
export async function exists(scope: WriteScope, model: Model, id: number, gate?: Gate): Promise<boolean> {
  if (!isStoredId(id)) return false;
  if (gate && (await gate.unrestricted(model, 'view'))) gate = undefined;
  return scope.batch(`exists:${model.key}:${gate ? 'viewable' : 'any'}`, id, async (ids) => {
    const qb = whereIdIn(scope.db(`${model.table} as t`), 't.id', ids);
    if (gate) await gate.restrict(qb, model, 'view');
    const found = new Set(((await qb.pluck('t.id')) as number[]).map(Number));
    return ids.map((i) => found.has(i));
  });
}

/** Whether the writer may view object `id` (`gate`: only among what they may view), which exists. */
async function viewable(scope: WriteScope, model: Model, id: number, gate?: Gate): Promise<boolean> {
  return !gate || (await gate.unrestricted(model, 'view')) || (await exists(scope, model, id, gate));
}

/**
 * Resolves a written related-object value (id, numeric string or attribute object) to one id of `model`,
 * or throws a ValidationError under `key` worded as NetBox words it. Lookups of one write are batched.
 */
export async function resolveRelated(scope: WriteScope, model: Model, value: unknown, key: string, gate?: Gate, lock = false): Promise<number> {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
    const id = Number(value);
    // To be locked anyway: the locked read tells whether it exists.
    const found = lock ? (await stored(scope, model, id, true)) !== undefined && (await viewable(scope, model, id, gate)) : await exists(scope, model, id, gate);
    if (!found) throw ValidationError.of(key, `Related object not found using the provided numeric ID: ${value}`);
    return id;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const attrs = value as Record<string, unknown>;
    const match = await scope.batch(`attributes:${model.key}:${gate ? 'viewable' : 'any'}`, attrs, (sets) => matchAll(scope, model, sets, gate));
    if ('error' in match) throw ValidationError.of(key, match.error);
    if (match.ids.length === 0) throw ValidationError.of(key, `Related object not found using the provided attributes: ${pyRepr(flatten(attrs))}`);
    if (match.ids.length > 1) throw ValidationError.of(key, `Multiple objects match the provided attributes: ${pyRepr(flatten(attrs))}`);
    return match.ids[0];
  }
  throw ValidationError.of(
    key,
    `Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
}
