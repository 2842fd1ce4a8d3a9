import type { Knex } from '@mikro-orm/knex';
import { applyFilter } from '../filters/compile.js';
import { FilterError } from '../filters/errors.js';
import { and, cmp, or, type FilterNode } from '../filters/tree.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import { userRegex } from '../model/regex.js';
import type { Db } from '../base/types.js';

/** One constraint object: Django-style lookups ANDed, e.g. `{"group__slug": "eu", "name__istartswith": "a"}`. */
export type ConstraintSet = Record<string, unknown>;

/**
 * A permission's constraints as a list of sets (ORed), or null when it restricts nothing
 * (null, `{}` or an empty list, as NetBox reads them).
 */
export function constraintSets(constraints: unknown): ConstraintSet[] | null {
  if (constraints === null || constraints === undefined) return null;
  const list = Array.isArray(constraints) ? constraints : [constraints];
  if (list.some((c) => typeof c !== 'object' || c === null || Array.isArray(c))) {
    throw new FilterError('Constraints must be an object or a list of objects.');
  }
  const sets = list as ConstraintSet[];
  return sets.length === 0 || sets.some((s) => Object.keys(s).length === 0) ? null : sets;
}

/** Replaces "$user" (also inside lists) with the requesting user's id. */
function substitute(value: unknown, userId: number | null): unknown {
  if (value === '$user') return userId;
  if (Array.isArray(value)) return value.map((v) => substitute(v, userId));
  return value;
}

/** A path with Django's attnames (`device_id`, `site__region_id`: a relation's column) as the relation's `id`. */
function withAttnames(model: Model, registry: ModelRegistry, steps: string[]): string[] {
  let current: Model | undefined = model;
  return steps.flatMap((step) => {
    const own = current?.field(step);
    const relation = own ? undefined : step.endsWith('_id') ? current?.field(step.slice(0, -3)) : undefined;
    const target = (own ?? relation)?.describe(registry).find((p) => p.relation)?.relation;
    current = target && own ? registry.get(target) : undefined;
    return relation && target ? [relation.name, 'id'] : [step];
  });
}

/**
 * `{"group__slug__in": [...]}` → a comparison on path group.slug.in; the field the path reaches reads a trailing
 * lookup name (`in`) as Django does.
 */
function toFilter(model: Model, registry: ModelRegistry, sets: ConstraintSet[], userId: number | null): FilterNode {
  const path = (key: string) => withAttnames(model, registry, key.split('__'));
  return or(sets.map((set) => and(Object.entries(set).map(([key, raw]) => cmp(path(key), 'exact', substitute(raw, userId))))));
}

/** Restricts `qb` (over `model` aliased `alias`) to rows matching any of `sets`, with "$user" as `userId`. */
export function applyConstraints(
  qb: Knex.QueryBuilder, model: Model, sets: ConstraintSet[], registry: ModelRegistry, db: Db, userId: number | null, alias = 't',
): void {
  applyFilter(qb, model, toFilter(model, registry, sets, userId), { registry, db }, alias);
}

/**
 * A regular expression of a constraint, which PostgreSQL would only reject when a request evaluates it (failing
 * every request of the user): it must compile, as users' patterns do, for RE2.
 */
function regexProblem(sets: ConstraintSet[]): string | undefined {
  for (const [key, value] of sets.flatMap((set) => Object.entries(set))) {
    if (!/__i?regex$/.test(key)) continue;
    if (typeof value !== 'string') return `${key} expects a regular expression.`;
    try {
      userRegex(value);
    } catch (problem) {
      return `${key}: ${String(problem)}`;
    }
  }
  return undefined;
}

/** Why these constraints cannot apply to `model`, or undefined when they can. */
export function constraintProblem(model: Model, constraints: unknown, registry: ModelRegistry, db: Db): string | undefined {
  try {
    const sets = constraintSets(constraints);
    if (!sets) return undefined;
    applyConstraints(db(`${model.table} as t`).select('t.id'), model, sets, registry, db, 0);
    return regexProblem(sets);
  } catch (err) {
    if (err instanceof FilterError) return err.message;
    throw err;
  }
}
