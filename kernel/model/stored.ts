import type { Model } from './model.js';
import type { Memo, Row } from '../base/types.js';
import { isStoredId } from '../base/values.js';
import type { WriteScope } from '../write/context.js';
import { whereIdIn } from '../base/typed-arrays.js';

/**
 * Where a write keeps a row it stored (inserted, updated, or changed in SQL by a plugin that remembers it), for the
 * reads later in the write that would read it back: `memo.recall(storedRow(model, id))`. Deleted rows are forgotten.
 */
export const storedRow = (model: string, id: number): string => `row:${model}:${id}`;

/** Where a write keeps every row of `model` whose `column` holds `value`, when it wrote all of them (a cable's ends). */
export const storedRowsWhere = (model: string, column: string, value: unknown): string => `rows:${model}:${column}:${JSON.stringify(value)}`;

const storedKey = (model: string, lock: boolean, id: number) => `stored:${model}:${lock ? 'lock' : 'read'}:${id}`;

/**
 * The row `id` of `model` as this step of the write read it under a row lock (`stored` with `lock`, as `resolve`
 * with `lock: true` reads it), if it did: no other transaction can have changed it since, but this step may have (a
 * row it remembers under `storedRow` is newer). Never reads.
 */
export function lockedRow(memo: Memo, model: string, id: number): Promise<Row | undefined> | undefined {
  return memo.held<Row | undefined>(storedKey(model, true, id));
}

/**
 * The stored row `id` of `model` as the transaction sees it, loaded with the rows the write's other items ask for
 * (one query per round). `lock` takes a row lock (in id order, so concurrent writes cannot deadlock on them): a
 * rule that reads one object to decide about another (free rack units) holds it until the write commits.
 */
export function stored(scope: Pick<WriteScope, 'db' | 'batch' | 'memo'>, model: Model, id: number, lock: boolean): Promise<Row | undefined> {
  if (!isStoredId(id)) return Promise.resolve(undefined);
  // Until the write stores, a row read once is the row: a locked one cannot change, and the write reads one view.
  return scope.memo.get(storedKey(model.key, lock, id), () => scope.batch(`stored:${model.key}:${lock ? 'lock' : 'read'}`, id, async (ids) => {
    const qb = whereIdIn(scope.db(model.table).select('*'), 'id', ids).orderBy('id');
    const rows = (await (lock ? qb.forUpdate() : qb)) as Row[];
    const byId = new Map(rows.map((r) => [r.id as number, r]));
    return ids.map((i) => byId.get(i));
  }));
}
