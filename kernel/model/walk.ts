import type { Knex } from '@mikro-orm/knex';
import type { ObjectRef } from './field.js';
import type { RenderContext, Row } from '../base/types.js';

/** The objects one row names through a relation key: one, several or none. */
export type RowRefs = (row: Row) => ObjectRef | ObjectRef[] | null;

/**
 * Relates rows `alias` of a query over a related model to the object whose id is the SQL expression `parent`
 * (kernel-built, never user input): the query then reads the related rows of every object of a page at once.
 */
export type Relate = (qb: Knex.QueryBuilder, alias: string, parent: string) => void;

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

