import type { Knex } from '@mikro-orm/knex';
import type { Model } from './model.js';
import type { ModelRegistry } from './registry.js';

const MAX_DEPTH = 4;

/** One ordering term reaching one field, as the ordering hands it to the field's kind. */
export interface OrderStep {
  qb: Knex.QueryBuilder;
  model: Model;
  alias: string;
  /** The path beyond the field (`group__name` reaches `group` with rest `['name']`). */
  rest: string[];
  desc: boolean;
  registry: ModelRegistry;
  /**
   * Joins `target` on `alias.<column>` (once per path) and returns the joined alias: an inner join when the
   * column is `required` (not null) all the way from the listed rows, which lets PostgreSQL walk the target's
   * index first and stop at the page; a left join otherwise, so rows without the relation stay.
   */
  join(target: Model, column: string, required?: boolean): string;
  /** Orders by `path` on `model` rows aliased `alias` (a relation continues on its target). */
  visit(model: Model, alias: string, path: string[], desc: boolean): void;
}

/**
 * Applies `terms` (field names or related paths such as `group__name`; `-` for descending) to a query over
 * `model` aliased `alias`. Each field kind decides how it orders; unknown terms are dropped, as NetBox does.
 * `id` always ends the ordering so that pages are stable.
 */
export function applyOrdering(qb: Knex.QueryBuilder, model: Model, terms: string[], registry: ModelRegistry, alias = 't'): void {
  const joined = new Set<string>();
  // Aliases every listed row has (reached through required relations only).
  const inner = new Set<string>([alias]);
  const visit = (m: Model, a: string, path: string[], desc: boolean, depth: number): void => {
    const [name, ...rest] = path;
    const field = registry.fieldOf(m, name);
    if (!field || depth > MAX_DEPTH) return;
    field.order({
      qb, model: m, alias: a, rest, desc, registry,
      join: (target, column, required = false) => {
        const ta = `${a}__${column}`;
        if (!joined.has(ta)) {
          if (required && inner.has(a)) {
            qb.join(`${target.table} as ${ta}`, `${ta}.id`, `${a}.${column}`);
            inner.add(ta);
          } else {
            qb.leftJoin(`${target.table} as ${ta}`, `${ta}.id`, `${a}.${column}`);
          }
          joined.add(ta);
        }
        return ta;
      },
      visit: (next, na, p, d) => visit(next, na, p, d, depth + 1),
    });
  };
  for (const raw of terms) {
    const term = raw.trim();
    const desc = term.startsWith('-');
    visit(model, alias, (desc ? term.slice(1) : term).split('__'), desc, 0);
  }
  qb.orderBy(`${alias}.id`, 'asc');
}
