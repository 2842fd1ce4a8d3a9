import type { Db, WriteScope } from 'patchbay';

/**
 * How many rows of `table` have `column` = `id` (and match `where`), counted for every item of a write in one
 * query: the rules that look at what an object already holds (mapped front ports, racked devices).
 */
export function countRows(scope: WriteScope, table: string, column: string, id: number, where: (qb: ReturnType<Db>) => void = () => {}): Promise<number> {
  return scope.batch(`dcim.count:${table}.${column}:${where.toString()}`, id, async (ids: number[]) => {
    const qb = scope.db(table).select(`${column} as id`).count({ n: '*' }).whereIn(column, ids).groupBy(column);
    where(qb);
    const counts = new Map(((await qb) as { id: number; n: string }[]).map((r) => [r.id, Number(r.n)]));
    return ids.map((i) => counts.get(i) ?? 0);
  });
}
