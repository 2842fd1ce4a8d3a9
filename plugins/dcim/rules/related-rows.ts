import { lastValue, not, or, parseBoolean, type Db, type FilterNode, type QueryFilter } from 'patchbay';

/** Objects whose id is among what `ids` selects (a subquery over another table). */
export function idIn(ids: (db: Db) => ReturnType<Db>): FilterNode {
  return { op: 'sql', condition: (qb, alias, _model, db) => void qb.whereIn(`${alias}.id`, ids(db)) };
}

/** `?<name>=true|false`: objects that have (or lack) a row in one of `tables` whose `column` points at them. */
export function hasRows(column: string, ...tables: string[]): QueryFilter {
  return {
    suffixes: [],
    build: (_s, values) => {
      const node = or(tables.map((table) => idIn((db) => db(table).select(column).whereNotNull(column))));
      return parseBoolean(lastValue(values)) ? node : not(node);
    },
  };
}
