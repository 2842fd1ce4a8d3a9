import type { Knex } from '@mikro-orm/knex';
import { ForeignKeyField, ParentField } from '../model/fields/foreign-key.js';
import { GenericForeignKeyField } from '../model/fields/generic.js';
import { ManyToManyField } from '../model/fields/many-to-many.js';
import type { Field } from '../model/field.js';
import { BooleanField, IntegerField } from '../model/fields/scalar.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { Db } from '../model/types.js';
import type { FilterNode, Lookup } from './tree.js';

/** A filter that cannot apply to the model (unknown field, wrong lookup or value). */
export class FilterError extends Error {}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The SQL of one comparison on `column`. */
function compare(qb: Knex.QueryBuilder, column: string, lookup: Lookup, value: unknown): void {
  const text = () => {
    if (typeof value !== 'string') throw new FilterError(`The '${lookup}' lookup expects text.`);
    return escapeLike(value);
  };
  const like = (cs: boolean, pattern: string) => qb.whereRaw(`??::text ${cs ? 'like' : 'ilike'} ?`, [column, pattern]);
  switch (lookup) {
    case 'exact':
      if (value === null) qb.whereNull(column);
      else qb.where(column, value as Knex.Value);
      return;
    case 'iexact':
      qb.whereRaw('upper(??::text) = upper(?)', [column, String(value)]);
      return;
    case 'in':
      if (!Array.isArray(value)) throw new FilterError("The 'in' lookup expects a list.");
      if (value.includes(null)) {
        const rest = value.filter((v) => v !== null) as Knex.Value[];
        qb.where((q) => q.whereNull(column).orWhereIn(column, rest));
      } else qb.whereIn(column, value as Knex.Value[]);
      return;
    case 'contains':
      like(true, `%${text()}%`);
      return;
    case 'icontains':
      like(false, `%${text()}%`);
      return;
    case 'startswith':
      like(true, `${text()}%`);
      return;
    case 'istartswith':
      like(false, `${text()}%`);
      return;
    case 'endswith':
      like(true, `%${text()}`);
      return;
    case 'iendswith':
      like(false, `%${text()}`);
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
    case 'empty':
      // Strings: '' or NULL; other types: NULL.
      if (value === true) qb.where((q) => q.whereNull(column).orWhereRaw(`??::text = ''`, [column]));
      else qb.whereNotNull(column).whereRaw(`??::text <> ''`, [column]);
      return;
    case 'regex':
    case 'iregex':
      qb.whereRaw(`??::text ${lookup === 'regex' ? '~' : '~*'} ?`, [column, String(value)]);
      return;
    case 'has':
      qb.whereRaw('? = any(??)', [value as Knex.Value, column]);
      return;
    case 'tree':
      throw new FilterError("The 'tree' lookup applies to relations of tree models.");
  }
}

/** Makes ids and integers numbers and booleans booleans, so a mistyped value is a FilterError, not an SQL error. */
function coerce(field: Field | undefined, lookup: Lookup, value: unknown): unknown {
  if (value === null || ['isnull', 'empty', 'regex', 'iregex', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith', 'iexact'].includes(lookup)) {
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => coerce(field, 'exact', v));
  if (!field || field instanceof IntegerField) {
    const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || Math.abs(n) > 2147483647) throw new FilterError(`Expected a whole number, got ${JSON.stringify(value)}.`);
    return n;
  }
  if (field instanceof BooleanField && typeof value !== 'boolean') throw new FilterError(`Expected true or false, got ${JSON.stringify(value)}.`);
  return value;
}

export interface CompileScope {
  registry: ModelRegistry;
  db: Db;
}

class Compiler {
  private n = 0;

  constructor(private readonly scope: CompileScope) {}

  node(qb: Knex.QueryBuilder, model: Model, alias: string, node: FilterNode): void {
    switch (node.op) {
      case 'and':
        qb.where((q) => node.nodes.forEach((n) => this.node(q, model, alias, n)));
        return;
      case 'or':
        if (node.nodes.length === 0) qb.whereRaw('false');
        else qb.where((q) => node.nodes.forEach((n) => q.orWhere((w) => this.node(w, model, alias, n))));
        return;
      case 'not': {
        // Rows for which the condition is not true, NULLs included (Django's exclude), not SQL's three-valued NOT.
        const sub = `n${this.n++}`;
        const matching = this.scope.db(`${model.table} as ${sub}`).select(`${sub}.id`);
        this.node(matching, model, sub, node.node);
        qb.whereNotIn(`${alias}.id`, matching);
        return;
      }
      case 'sql':
        qb.where((q) => node.condition(q, alias, model, this.scope.db));
        return;
      case 'cmp':
        this.leaf(qb, model, alias, node.path, node.lookup, node.value);
    }
  }

  /** The ids of `target` rows matching `ids` and, for `tree`, all their descendants. */
  private treeIds(target: Model, ids: unknown): Knex.QueryBuilder {
    const list = Array.isArray(ids) ? ids : [ids];
    const sub = `tr${this.n++}`;
    return this.scope.db
      .withRecursive(sub, ['id'], (q) =>
        q.select('id').from(target.table).whereIn('id', list as number[]).union((u) =>
          u.select('c.id').from(`${target.table} as c`).join(sub, `${sub}.id`, 'c.parent_id'),
        ),
      )
      .select('id')
      .from(sub);
  }

  private leaf(qb: Knex.QueryBuilder, model: Model, alias: string, path: string[], lookup: Lookup, value: unknown): void {
    const [name, ...rest] = path;
    const field: Field | undefined = name === 'id' ? undefined : model.field(name);
    if (name !== 'id' && !field) throw new FilterError(`Cannot resolve keyword '${name}' into field.`);
    if (field instanceof ForeignKeyField || field instanceof ManyToManyField) {
      const target = this.scope.registry.get(field.target);
      if (rest.length === 0 && (lookup === 'isnull' || (lookup === 'exact' && value === null))) {
        const isNull = lookup === 'isnull' ? value === true : true;
        if (field instanceof ForeignKeyField) compare(qb, `${alias}.${field.column}`, 'isnull', isNull);
        else {
          const { table, source } = field.join;
          const linked = this.scope.db(table).select(source);
          if (isNull) qb.whereNotIn(`${alias}.id`, linked);
          else qb.whereIn(`${alias}.id`, linked);
        }
        return;
      }
      let ids: Knex.QueryBuilder;
      if (rest.length === 0 && lookup === 'tree') {
        if (!target.fields.some((f) => f instanceof ParentField)) throw new FilterError(`'${name}' is not a tree.`);
        ids = this.treeIds(target, coerce(undefined, 'in', Array.isArray(value) ? value : [value]));
      } else {
        const sub = `f${this.n++}`;
        ids = this.scope.db(`${target.table} as ${sub}`).select(`${sub}.id`);
        // A lookup on the relation itself compares the target's id; a longer path continues on the target.
        if (rest.length === 0) compare(ids, `${sub}.id`, lookup, coerce(undefined, lookup, value));
        else this.leaf(ids, target, sub, rest, lookup, value);
      }
      if (field instanceof ForeignKeyField) qb.whereIn(`${alias}.${field.column}`, ids);
      else {
        const { table, source, target: tcol } = field.join;
        qb.whereIn(`${alias}.id`, this.scope.db(table).select(source).whereIn(tcol, ids));
      }
      return;
    }
    if (rest.length) throw new FilterError(`'${name}' has no field '${rest[0]}'.`);
    if (field instanceof GenericForeignKeyField) throw new FilterError(`'${name}' is filtered by its _type and _id.`);
    const column = field ? field.columns()[0]?.name : 'id';
    if (!column) throw new FilterError(`'${name}' cannot be filtered.`);
    compare(qb, `${alias}.${column}`, lookup, coerce(field, lookup, value));
  }
}

/** Adds `node` as a condition on `model` rows aliased `alias`; relation paths become subqueries, so rows never repeat. */
export function applyFilter(qb: Knex.QueryBuilder, model: Model, node: FilterNode, scope: CompileScope, alias = 't'): void {
  if (node.op === 'and' && node.nodes.length === 0) return;
  new Compiler(scope).node(qb, model, alias, node);
  // knex builds nested conditions when it compiles; compiling now raises a FilterError here, not mid-request.
  qb.clone().toSQL();
}
