import type { Knex } from '@mikro-orm/knex';
import type { ObjectRef } from './field.js';
import type { Model } from './model.js';
import type { RenderContext, Row } from '../base/types.js';
import { idArray } from '../base/typed-arrays.js';

/** The objects one row names through a relation key: one, several or none. */
export type RowRefs = (row: Row) => ObjectRef | ObjectRef[] | null;

/**
 * Relates rows `alias` of a query over a related model to the object whose id is the SQL expression `parent`
 * (kernel-built, never user input): the query then reads the related rows of every object of a page at once.
 */
export interface Relate {
  /** Adds the condition that relates rows `alias` to the object `parent`. */
  (qb: Knex.QueryBuilder, alias: string, parent: string): void;
  /**
   * When a field of the related rows holds the object's id (a foreign key, a generic relation): that field and its
   * column. Readers then find the objects that have related rows with one index scan for all of them, and drop the
   * field from the rows' ordering (within one object's list it is the same for every row).
   */
  via?: {
    field: string;
    column: string;
    /** Relates rows `alias` to any of the objects `ids` (bound as one parameter). */
    among(qb: Knex.QueryBuilder, alias: string, ids: number[]): void;
  };
}

/**
 * How a reader walks from a page of rows to the objects one relation key names (GraphQL's nested objects and
 * lists): the models it reaches, and either each row's references, loaded for the page at once, or, for lists
 * of one model that take their own filters and pages, SQL relating the target's rows to each row.
 */
export interface Walk {
  /** Model keys; several make a union. */
  targets: string[];
  many: boolean;
  /** The union's name when there are several targets (`IPAddressAssignmentType`). */
  union?: string;
  refs?(rows: Row[], ctx: RenderContext): Promise<RowRefs> | RowRefs;
  relate?: Relate;
}


/**
 * A relation whose related rows hold the object's id in `column` (of field `field`): `on` adds the condition that
 * relates rows `alias` to the SQL expression `parent`, with `bindings` for the placeholders in it.
 */
export function relateByColumn(
  field: string, column: string, on: (qb: Knex.QueryBuilder, alias: string, parent: string, bindings: Knex.Value[]) => void,
): Relate {
  const relate: Relate = (qb, alias, parent) => on(qb, alias, parent, []);
  relate.via = { field, column, among: (qb, alias, ids) => on(qb, alias, 'any(?::int[])', [idArray(ids)]) };
  return relate;
}

/**
 * The ordering of `model`'s rows within one object's list: the model's own, less the field holding the object's id
 * when `relate` has one (the same for every row of the list: no join to order by it); undefined for the model's own.
 */
export function orderingWithin(model: Model, relate: Relate): string[] | undefined {
  const { via } = relate;
  return via && model.ordering.filter((term) => term.replace(/^-/, '').split('__')[0] !== via.field);
}
