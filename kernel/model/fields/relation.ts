import type { Knex } from '@mikro-orm/knex';
import type { Comparison } from '../../filters/compile.js';
import { FilterError } from '../../filters/errors.js';
import type { FilterNode } from '../../filters/tree.js';
import type { Model } from '../model.js';
import type { ModelRegistry } from '../registry.js';
import { wholeNumber } from '../../base/values.js';

/** How a relation links its rows to target ids: by a column, or through a join table. */
export interface RelationLink {
  /** Rows with (`true`) or without (`false`) any related object. */
  isNull(qb: Knex.QueryBuilder, alias: string, isNull: boolean): void;
  /** Rows related to one of the target ids `ids` selects. */
  among(qb: Knex.QueryBuilder, alias: string, ids: Knex.QueryBuilder): void;
}

/**
 * A comparison on a relation: `isnull` and `null` on the relation itself, `tree` on a tree target (a node and
 * its descendants), `matches` a filter tree on the target, other lookups on the target's id, and longer paths
 * continue on the target.
 */
export function relationCondition(c: Comparison, target: Model, link: RelationLink): void {
  let { rest, lookup } = c;
  // Django's `group__in` reaches the relation as path ['group', 'in'].
  if (rest.length === 1 && lookup === 'exact' && !target.field(rest[0]) && (rest[0] === 'tree' || target.field('id')!.lookups()[rest[0]])) {
    [lookup, rest] = [rest[0], []];
  }
  if (rest.length === 0 && (lookup === 'isnull' || (lookup === 'exact' && c.value === null))) {
    if (lookup === 'isnull' && ![true, false, 'true', 'false'].includes(c.value as string)) throw new FilterError("The 'isnull' lookup expects true or false.", 'value');
    link.isNull(c.qb, c.alias, lookup === 'isnull' ? c.value === true || c.value === 'true' : true);
    return;
  }
  let ids: Knex.QueryBuilder;
  if (rest.length === 0 && lookup === 'matches') {
    if (!isFilterNode(c.value)) throw new FilterError("The 'matches' lookup expects a filter.", 'value');
    ids = c.matchingTree(target, c.value);
  } else if (rest.length === 0 && lookup === 'tree') {
    const list = (Array.isArray(c.value) ? c.value : [c.value]).map((v) => {
      const id = wholeNumber(v);
      if (id === undefined) throw new FilterError(`Expected a whole number, got ${JSON.stringify(v)}.`, 'value');
      return id;
    });
    ids = c.descendants(target, list);
  } else {
    ids = c.matching(target, rest.length ? rest : ['id'], lookup, c.value);
  }
  link.among(c.qb, c.alias, ids);
}

function isFilterNode(value: unknown): value is FilterNode {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string';
}

/** The attribute `q` matches on a related object: its name, username or slug. */
export function searchKey(target: Model): string | undefined {
  return ['name', 'username', 'slug'].find((n) => target.field(n));
}

/** The model a relation points at, or a start-up error naming the field. */
export function relatedModel(registry: ModelRegistry, owner: Model, name: string, key: string): Model {
  const target = registry.find(key);
  if (!target) throw new Error(`${owner.key}.${name} refers to ${key}, which no enabled plugin provides`);
  return target;
}
