import type { Knex } from '@mikro-orm/knex';
import { ForeignKeyField } from './fields/foreign-key.js';
import type { Model } from './model.js';
import { ValidationError, type Db } from './types.js';

/** Python's repr of the flattened lookup, as NetBox words its related-object errors. */
function pyRepr(params: Record<string, unknown>): string {
  const value = (v: unknown): string => {
    if (v === null || v === undefined) return 'None';
    if (v === true) return 'True';
    if (v === false) return 'False';
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    return JSON.stringify(v);
  };
  return `{${Object.entries(params).map(([k, v]) => `'${k}': ${value(v)}`).join(', ')}}`;
}

function flatten(attrs: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(flat, flatten(v as Record<string, unknown>, `${prefix}${k}__`));
    else flat[`${prefix}${k}`] = v;
  }
  return flat;
}

/** Adds WHERE (and JOIN) clauses matching `attrs` on `model` aliased `alias`; nested objects follow foreign keys. */
function applyAttributes(qb: Knex.QueryBuilder, model: Model, alias: string, attrs: Record<string, unknown>, key: string, resolveModel: (k: string) => Model): void {
  for (const [name, value] of Object.entries(attrs)) {
    const field = model.field(name);
    if (!field || (field.columns().length === 0 && name !== 'id')) {
      throw ValidationError.of(key, `Cannot resolve keyword '${name}' into field.`);
    }
    if (field instanceof ForeignKeyField) {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const target = resolveModel(field.target);
        const joined = `${alias}_${name}`;
        qb.join(`${target.table} as ${joined}`, `${joined}.id`, `${alias}.${field.column}`);
        applyAttributes(qb, target, joined, value as Record<string, unknown>, key, resolveModel);
        continue;
      }
      if (value === null) qb.whereNull(`${alias}.${field.column}`);
      else qb.where(`${alias}.${field.column}`, value as Knex.Value);
      continue;
    }
    if (typeof value === 'object' && value !== null) throw ValidationError.of(key, `Invalid lookup value for '${name}'.`);
    const column = `${alias}.${field.columns()[0].name}`;
    if (value === null) qb.whereNull(column);
    else qb.where(column, value as Knex.Value);
  }
}

/**
 * Resolves a written related-object value (id, numeric string or attribute object) to one id of `model`,
 * or throws a ValidationError under `key` worded as NetBox words it.
 */
export async function resolveRelated(db: Db, model: Model, value: unknown, key: string, resolveModel: (k: string) => Model): Promise<number> {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
    const id = Number(value);
    if (!Number.isSafeInteger(id) || id > 2147483647) throw ValidationError.of(key, `Related object not found using the provided numeric ID: ${value}`);
    const found = await db(model.table).where('id', id).first('id');
    if (!found) throw ValidationError.of(key, `Related object not found using the provided numeric ID: ${value}`);
    return id;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const attrs = value as Record<string, unknown>;
    let rows: { id: number }[];
    try {
      // A savepoint, so that a value of the wrong type for its column does not abort the caller's transaction.
      rows = await db.transaction(async (sp) => {
        const qb = sp(`${model.table} as t`).select('t.id').limit(2);
        applyAttributes(qb, model, 't', attrs, key, resolveModel);
        return qb;
      });
    } catch (err) {
      if (!['22P02', '22003', '22007', '22008'].includes((err as { code?: string }).code ?? '')) throw err;
      rows = [];
    }
    if (rows.length === 0) throw ValidationError.of(key, `Related object not found using the provided attributes: ${pyRepr(flatten(attrs))}`);
    if (rows.length > 1) throw ValidationError.of(key, `Multiple objects match the provided attributes: ${pyRepr(flatten(attrs))}`);
    return rows[0].id;
  }
  throw ValidationError.of(
    key,
    `Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
}
