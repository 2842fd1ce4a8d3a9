import type { Knex } from '@mikro-orm/knex';
import type { Model } from '../model/model.js';
import type { Db, Row } from '../base/types.js';
import { whereIdIn } from '../base/typed-arrays.js';

export type Action = 'view' | 'add' | 'change' | 'delete' | (string & {});

/** What a reader or writer may do: the permission checks every read and write goes through. */
export interface Gate {
  /**
   * Loads what the checks read (the user's permissions) before a write opens its transaction, so that no check
   * waits for a second pool connection while the write holds one.
   */
  prepare(): Promise<void>;
  can(model: Model, action: Action): Promise<boolean>;
  /** Whether `action` on `model` is permitted on every object (no constraint narrows it). */
  unrestricted(model: Model, action: Action): Promise<boolean>;
  /** Refuses (403) unless `action` on `model` is permitted at all. */
  require(model: Model, action: Action): Promise<void>;
  /** Narrows a query over `model` (aliased `t`) to the objects `action` may touch. */
  restrict(qb: Knex.QueryBuilder, model: Model, action: Action): Promise<void>;
  /** Refuses (403) written rows that fall outside what `action` permits (read through the write's transaction). */
  verify(db: Db, model: Model, action: 'add' | 'change', rows: Row[], previous: Map<number, Row>): Promise<void>;
}

/** Which of `ids` (objects of `model`) the reader may view: one query, none when nothing restricts the reader. */
export function viewableBy(gate: Gate, db: Db): (model: Model, ids: number[]) => Promise<Set<number>> {
  return async (model, ids) => {
    if (!ids.length || (await gate.unrestricted(model, 'view'))) return new Set(ids);
    const qb = whereIdIn(db(`${model.table} as t`), 't.id', ids);
    await gate.restrict(qb, model, 'view');
    return new Set((await qb.pluck('t.id')) as number[]);
  };
}

/** The server itself: everything is permitted (jobs, commands, derived writes). */
export const SYSTEM: Gate = {
  prepare: async () => {},
  can: async () => true,
  unrestricted: async () => true,
  require: async () => {},
  restrict: async () => {},
  verify: async () => {},
};
