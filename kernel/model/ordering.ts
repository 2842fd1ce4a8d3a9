import type { Knex } from '@mikro-orm/knex';
import { ForeignKeyField } from './fields/foreign-key.js';
import type { Model } from './model.js';
import type { ModelRegistry } from './registry.js';

const MAX_DEPTH = 4;

/**
 * Applies `terms` (field names or related paths such as `group__name`; `-` for descending) to a query over
 * `model` aliased `alias`. A foreign key orders by its target's default ordering; unknown terms are dropped,
 * as NetBox does. `id` always ends the ordering so that pages are stable.
 */
export function applyOrdering(qb: Knex.QueryBuilder, model: Model, terms: string[], registry: ModelRegistry, alias = 't'): void {
  const joined = new Set<string>();
  const join = (target: Model, a: string, field: ForeignKeyField): string => {
    const ta = `${a}__${field.name}`;
    if (!joined.has(ta)) {
      qb.leftJoin(`${target.table} as ${ta}`, `${ta}.id`, `${a}.${field.column}`);
      joined.add(ta);
    }
    return ta;
  };
  const visit = (m: Model, a: string, path: string[], desc: boolean, depth: number): void => {
    const [name, ...rest] = path;
    const field = m.field(name);
    if (!field || depth > MAX_DEPTH) return;
    if (field instanceof ForeignKeyField) {
      const target = registry.get(field.target);
      const ta = join(target, a, field);
      if (rest.length) return visit(target, ta, rest, desc, depth + 1);
      for (const t of target.ordering) visit(target, ta, [t.replace(/^-/, '')], t.startsWith('-') !== desc, depth + 1);
      return;
    }
    const column = field.orderColumn();
    if (column && !rest.length) qb.orderBy(`${a}.${column}`, desc ? 'desc' : 'asc');
  };
  for (const raw of terms) {
    const term = raw.trim();
    const desc = term.startsWith('-');
    visit(model, alias, (desc ? term.slice(1) : term).split('__'), desc, 0);
  }
  qb.orderBy(`${alias}.id`, 'asc');
}
