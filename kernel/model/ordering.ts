import type { Knex } from '@mikro-orm/knex';
import { ForeignKeyField } from './fields/foreign-key.js';
import type { Model } from './model.js';
import type { ModelRegistry } from './registry.js';

/**
 * Applies `terms` (field names, `-` for descending) to a query over `model` aliased `alias`.
 * A foreign key orders by its target's default ordering; unknown terms are dropped, as NetBox does.
 * `id` always ends the ordering so that pages are stable.
 */
export function applyOrdering(qb: Knex.QueryBuilder, model: Model, terms: string[], registry: ModelRegistry, alias = 't'): string[] {
  const applied: string[] = [];
  const joined = new Set<string>();
  const visit = (m: Model, a: string, term: string, depth: number): boolean => {
    const desc = term.startsWith('-');
    const name = desc ? term.slice(1) : term;
    const field = m.field(name);
    if (!field) return false;
    if (field instanceof ForeignKeyField && depth < 2) {
      const target = registry.get(field.target);
      const ta = `${a}__${name}`;
      if (!joined.has(ta)) {
        qb.leftJoin(`${target.table} as ${ta}`, `${ta}.id`, `${a}.${field.column}`);
        joined.add(ta);
      }
      for (const t of target.ordering) {
        const tDesc = t.startsWith('-') !== desc;
        visit(target, ta, `${tDesc ? '-' : ''}${t.replace(/^-/, '')}`, depth + 1);
      }
      return true;
    }
    const column = field.orderColumn();
    if (!column) return false;
    qb.orderBy(`${a}.${column}`, desc ? 'desc' : 'asc');
    return true;
  };
  for (const term of terms) if (visit(model, alias, term.trim(), 0)) applied.push(term.trim());
  qb.orderBy(`${alias}.id`, 'asc');
  return applied;
}
