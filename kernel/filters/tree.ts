import type { Knex } from '@mikro-orm/knex';
import type { Model } from '../model/model.js';
import type { Db } from '../base/types.js';

/**
 * A comparison's name: the kernel's `exact`, `in`, `isnull`, `icontains`, `gte`... or one a field kind adds.
 * Relations also understand `tree` (a node of a tree model and its descendants) and `matches` (the related
 * objects match a whole filter tree, given as the value).
 */
export type Lookup = string;

/** Adds a condition on `alias` (a row of `model`) to `qb`; what plugins contribute for filters the kernel cannot derive. */
export type SqlCondition = (qb: Knex.QueryBuilder, alias: string, model: Model, db: Db) => void;

/**
 * One filter tree for every source of filters (query strings, permission constraints, related-object
 * attributes, GraphQL input): boolean combinations over comparisons along relation paths.
 */
export type FilterNode =
  | { op: 'and'; nodes: FilterNode[] }
  /**
   * `byIds`: each branch is answered on its own and their ids united (`id in (select id ... union ...)`), so that
   * each uses its own index, where one OR across relations makes PostgreSQL read the whole table (`?q=`).
   */
  | { op: 'or'; nodes: FilterNode[]; byIds?: boolean }
  | { op: 'not'; node: FilterNode }
  /** `path` names fields from the model outwards (`['group', 'slug']`); `['id']` is the primary key. */
  | { op: 'cmp'; path: string[]; lookup: Lookup; value: unknown }
  | { op: 'sql'; condition: SqlCondition };

export const and = (nodes: FilterNode[]): FilterNode => ({ op: 'and', nodes });
export const or = (nodes: FilterNode[], byIds?: boolean): FilterNode => (byIds ? { op: 'or', nodes, byIds } : { op: 'or', nodes });
export const not = (node: FilterNode): FilterNode => ({ op: 'not', node });
export const cmp = (path: string[], lookup: Lookup, value: unknown): FilterNode => ({ op: 'cmp', path, lookup, value });

/** Whether a tree selects every row: `and` of nothing, or of such trees only. */
export const matchesAll = (node: FilterNode): boolean => node.op === 'and' && node.nodes.every(matchesAll);
