import type { Knex } from '@mikro-orm/knex';
import { applyFilter } from '../filters/compile.js';
import { FilterError } from '../filters/errors.js';
import { and, cmp, type FilterNode } from '../filters/tree.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import { ValidationError } from '../model/types.js';
import { isStoredId } from '../model/values.js';
import type { WriteScope } from './context.js';
import type { Gate } from './gate.js';

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

/**
 * Matches many attribute sets of one model in a single query: each set compiles through the filter tree
 * (relation paths become subqueries) and the sets are joined with UNION ALL, two rows at most each.
 */
async function matchAll(scope: WriteScope, model: Model, sets: Record<string, unknown>[], gate?: Gate): Promise<Match[]> {
  const { db, registry } = scope;
  const matches: Match[] = sets.map(() => ({ ids: [] }));
  const parts: Knex.QueryBuilder[] = [];
  for (const [i, attrs] of sets.entries()) {
    const paths = Object.entries(flatten(attrs)).map(([path, value]) => ({ path: path.split('__'), value }));
    const problem = paths.map(({ path }) => pathProblem(model, path, registry)).find(Boolean);
    if (problem) {
      matches[i] = { error: problem };
      continue;
    }
    const node: FilterNode = and(paths.map(({ path, value }) => cmp(path, 'exact', value)));
    const qb = db(`${model.table} as t`).select(db.raw('? as k', [i]), 't.id');
    try {
      applyFilter(qb, model, node, { db, registry });
    } catch (err) {
      if (!(err instanceof FilterError)) throw err;
      // A value of the wrong type matches nothing; a name that does not resolve is the client's mistake.
      if (err.kind === 'field') matches[i] = { error: err.message };
      continue;
    }
    if (gate) await gate.restrict(qb, model, 'view');
    parts.push(qb.limit(2));
  }
  if (parts.length) {
    const compiled = parts.map((p) => p.toSQL());
    const { rows } = (await db.raw(compiled.map((c) => `(${c.sql})`).join(' union all '), compiled.flatMap((c) => c.bindings))) as {
      rows: { k: number; id: number }[];
    };
    for (const row of rows) (matches[Number(row.k)] as { ids: number[] }).ids.push(row.id);
  }
  return matches;
}

/** Whether `id` exists in `model`'s table (and `gate`, when given, lets the writer view it); one query per round of the write. */
export function exists(scope: WriteScope, model: Model, id: number, gate?: Gate): Promise<boolean> {
  if (!isStoredId(id)) return Promise.resolve(false);
  return scope.batch(`exists:${model.key}:${gate ? 'viewable' : 'any'}`, id, async (ids) => {
    const qb = scope.db(`${model.table} as t`).whereIn('t.id', ids);
    if (gate) await gate.restrict(qb, model, 'view');
    const found = new Set(((await qb.pluck('t.id')) as number[]).map(Number));
    return ids.map((i) => found.has(i));
  });
}

/**
 * Resolves a written related-object value (id, numeric string or attribute object) to one id of `model`,
 * or throws a ValidationError under `key` worded as NetBox words it. Lookups of one write are batched.
 */
export async function resolveRelated(scope: WriteScope, model: Model, value: unknown, key: string, gate?: Gate): Promise<number> {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
    const id = Number(value);
    if (!(await exists(scope, model, id, gate))) throw ValidationError.of(key, `Related object not found using the provided numeric ID: ${value}`);
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
