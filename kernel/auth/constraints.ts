import type { Knex } from '@mikro-orm/knex';
import { ForeignKeyField } from '../model/fields/foreign-key.js';
import { ManyToManyField } from '../model/fields/many-to-many.js';
import { BooleanField, IntegerField } from '../model/fields/scalar.js';
import type { Field } from '../model/field.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { Db } from '../model/types.js';

/** One constraint object: Django-style lookups ANDed, e.g. `{"group__slug": "eu", "name__istartswith": "a"}`. */
export type ConstraintSet = Record<string, unknown>;

class ConstraintError extends Error {}

const LOOKUPS = new Set(['exact', 'iexact', 'in', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith', 'gt', 'gte', 'lt', 'lte', 'isnull', 'regex', 'iregex']);

/**
 * A permission's constraints as a list of sets (ORed), or null when it restricts nothing
 * (null, `{}` or an empty list, as NetBox reads them).
 */
export function constraintSets(constraints: unknown): ConstraintSet[] | null {
  if (constraints === null || constraints === undefined) return null;
  const list = Array.isArray(constraints) ? constraints : [constraints];
  if (list.some((c) => typeof c !== 'object' || c === null || Array.isArray(c))) {
    throw new ConstraintError('Constraints must be an object or a list of objects.');
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

function coerce(field: Field | undefined, value: unknown, key: string): unknown {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((v) => coerce(field, v, key));
  const numeric = !field || field instanceof IntegerField || field instanceof ForeignKeyField || field.name === 'id';
  if (numeric) {
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n)) throw new ConstraintError(`'${key}' expects a number, got ${JSON.stringify(value)}.`);
    return n;
  }
  if (field instanceof BooleanField && typeof value !== 'boolean') throw new ConstraintError(`'${key}' expects true or false.`);
  return value;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function compare(qb: Knex.QueryBuilder, column: string, lookup: string, value: unknown): void {
  const text = () => {
    if (typeof value !== 'string') throw new ConstraintError(`The '${lookup}' lookup expects text.`);
    return escapeLike(value);
  };
  switch (lookup) {
    case 'exact':
      if (value === null) qb.whereNull(column);
      else qb.where(column, value as Knex.Value);
      return;
    case 'iexact':
      qb.whereRaw('upper(??::text) = upper(?)', [column, String(value)]);
      return;
    case 'in':
      if (!Array.isArray(value)) throw new ConstraintError("The 'in' lookup expects a list.");
      qb.whereIn(column, value as Knex.Value[]);
      return;
    case 'contains':
    case 'icontains':
      qb.whereRaw(`??::text ${lookup === 'contains' ? 'like' : 'ilike'} ?`, [column, `%${text()}%`]);
      return;
    case 'startswith':
    case 'istartswith':
      qb.whereRaw(`??::text ${lookup === 'startswith' ? 'like' : 'ilike'} ?`, [column, `${text()}%`]);
      return;
    case 'endswith':
    case 'iendswith':
      qb.whereRaw(`??::text ${lookup === 'endswith' ? 'like' : 'ilike'} ?`, [column, `%${text()}`]);
      return;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      qb.where(column, { gt: '>', gte: '>=', lt: '<', lte: '<=' }[lookup], value as Knex.Value);
      return;
    case 'isnull':
      if (value === true) qb.whereNull(column);
      else qb.whereNotNull(column);
      return;
    case 'regex':
    case 'iregex':
      qb.whereRaw(`??::text ${lookup === 'regex' ? '~' : '~*'} ?`, [column, String(value)]);
      return;
  }
}

interface Scope {
  registry: ModelRegistry;
  db: Db;
  counter: { n: number };
}

/** Adds the condition `key = value` (with relation paths and lookups) for `model` aliased `alias`. */
function condition(qb: Knex.QueryBuilder, model: Model, alias: string, parts: string[], value: unknown, key: string, scope: Scope): void {
  const [name, ...rest] = parts;
  const field = name === 'id' ? undefined : model.field(name);
  if (name !== 'id' && (!field || (field.columns().length === 0 && !(field instanceof ManyToManyField)))) {
    throw new ConstraintError(`Cannot resolve keyword '${name}' into field.`);
  }
  const lookup = rest.length === 1 && LOOKUPS.has(rest[0]) ? rest[0] : rest.length === 0 ? 'exact' : undefined;
  if (field instanceof ForeignKeyField || field instanceof ManyToManyField) {
    const target = scope.registry.get(field.target);
    const sub = `c${scope.counter.n++}`;
    if (lookup === 'isnull' || (lookup === 'exact' && value === null)) {
      if (!(field instanceof ForeignKeyField)) throw new ConstraintError(`'${key}' cannot test a many-to-many field for null.`);
      compare(qb, `${alias}.${field.column}`, 'isnull', lookup === 'isnull' ? value === true : true);
      return;
    }
    const ids = scope.db(`${target.table} as ${sub}`).select(`${sub}.id`);
    // A lookup on the relation itself compares the target's id; a longer path continues on the target.
    if (lookup) compare(ids, `${sub}.id`, lookup, coerce(undefined, value, key));
    else condition(ids, target, sub, rest, value, key, scope);
    if (field instanceof ForeignKeyField) {
      qb.whereIn(`${alias}.${field.column}`, ids);
    } else {
      const { table, source, target: tcol } = field.join;
      qb.whereIn(`${alias}.id`, scope.db(table).select(source).whereIn(tcol, ids));
    }
    return;
  }
  if (!lookup) throw new ConstraintError(`Unsupported lookup '${rest.join('__')}' for field '${name}'.`);
  const column = `${alias}.${field ? field.columns()[0].name : 'id'}`;
  compare(qb, column, lookup, lookup === 'isnull' ? value === true : coerce(field, value, key));
}

/** Restricts `qb` (over `model` aliased `alias`) to rows matching any of `sets`, with "$user" as `userId`. */
export function applyConstraints(
  qb: Knex.QueryBuilder, model: Model, sets: ConstraintSet[], registry: ModelRegistry, db: Db, userId: number | null, alias = 't',
): void {
  const scope: Scope = { registry, db, counter: { n: 0 } };
  qb.where((any) => {
    for (const set of sets) {
      any.orWhere((all) => {
        for (const [key, raw] of Object.entries(set)) condition(all, model, alias, key.split('__'), substitute(raw, userId), key, scope);
      });
    }
  });
}

/** Why these constraints cannot apply to `model`, or undefined when they can. */
export function constraintProblem(model: Model, constraints: unknown, registry: ModelRegistry, db: Db): string | undefined {
  try {
    const sets = constraintSets(constraints);
    if (sets) {
      // Compiling the query runs the condition builders, which throw on what cannot apply.
      const qb = db(`${model.table} as t`).select('t.id');
      applyConstraints(qb, model, sets, registry, db, 0);
      qb.toString();
    }
    return undefined;
  } catch (err) {
    if (err instanceof ConstraintError) return err.message;
    throw err;
  }
}
