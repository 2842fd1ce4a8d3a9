import type { Knex } from '@mikro-orm/knex';
import { ParamError, checkRegex, lastValue, parseDate, parseDateTime, type FilterExtension, type QueryFilter, type SqlCondition } from 'patchbay';
import { CUSTOM_FIELD_DATA } from './fields/custom-fields.js';

const TEXT = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty', 'regex', 'iregex'];
const ORDERED = ['n', 'lt', 'lte', 'gt', 'gte', 'empty'];

const bool = (v: string) => {
  if (/^(true|1)$/i.test(v)) return true;
  if (/^(false|0)$/i.test(v)) return false;
  throw new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);
};

/** SQL on the stored value of `name` in the side table's `data`, for one value and lookup. */
function condition(type: string, logic: string, suffix: string, value: string): { sql: string; bindings: Knex.Value[]; negate: boolean } {
  const negate = suffix.startsWith('n') && suffix !== 'n' ? true : suffix === 'n';
  const op = suffix === 'n' ? '' : negate ? suffix.slice(1) : suffix;
  const text = `(d.data ->> :name)`;
  switch (type) {
    case 'integer':
    case 'decimal': {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) throw new ParamError(type === 'integer' ? 'Enter a whole number.' : 'Enter a number.');
      const cmp = { '': '=', lt: '<', lte: '<=', gt: '>', gte: '>=' }[op];
      if (!cmp) break;
      return { sql: `${text}::numeric ${cmp} ?`, bindings: [n], negate };
    }
    case 'date':
    case 'datetime': {
      const parsed = type === 'date' ? parseDate(value) : parseDateTime(value);
      if (!parsed) throw new ParamError(type === 'date' ? 'Enter a valid date.' : 'Enter a valid date/time.');
      const cmp = { '': '=', lt: '<', lte: '<=', gt: '>', gte: '>=' }[op];
      if (!cmp) break;
      return { sql: type === 'date' ? `(${text})::date ${cmp} ?::date` : `(${text})::timestamptz ${cmp} ?::timestamptz`, bindings: [parsed], negate };
    }
    case 'boolean':
      return { sql: `(d.data -> :name) = ?::jsonb`, bindings: [JSON.stringify(bool(value))], negate };
    case 'multiselect':
      return { sql: `jsonb_exists(d.data -> :name, ?)`, bindings: [value], negate };
    case 'object':
    case 'multiobject': {
      if (!/^\d+$/.test(value)) throw new ParamError('Enter a whole number.');
      return { sql: `(d.data -> :name) @> ?::jsonb`, bindings: [type === 'object' ? value : `[${value}]`], negate };
    }
    default: {
      // text, longtext, url, select: loose matching makes the bare filter a case-insensitive "contains".
      if (logic === 'loose' && type !== 'select' && op === '') return { sql: `${text} ilike ?`, bindings: [`%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`], negate };
      const like = (pattern: string) => ({ sql: `${text} ilike ?`, bindings: [pattern] as Knex.Value[], negate });
      const esc = value.replace(/[\\%_]/g, (c) => `\\${c}`);
      if (op === '') return { sql: `${text} = ?`, bindings: [value], negate };
      if (op === 'ic') return like(`%${esc}%`);
      if (op === 'isw') return like(`${esc}%`);
      if (op === 'iew') return like(`%${esc}`);
      if (op === 'ie') return like(esc);
      if (op === 'regex' || op === 'iregex') return { sql: `${text} ${op === 'regex' ? '~' : '~*'} ?`, bindings: [value], negate };
    }
  }
  throw new ParamError(`Lookup ${suffix} does not apply to this custom field.`);
}

/** `cf_<name>` with the lookups of the field's type, for custom fields whose filter logic is not disabled. */
export const customFieldFilters: FilterExtension = {
  appliesTo: (model) => model.features.has('customFields'),
  filters: () => ({}),
  resolve(_model, param): QueryFilter | undefined {
    if (!param.startsWith('cf_') || param.includes('__')) return undefined;
    const name = param.slice(3);
    return {
      suffixes: [...new Set([...TEXT, ...ORDERED])],
      async build(suffix, values, ctx) {
        const def = (await ctx.db('extras_customfield').where('name', name).first('type', 'filter_logic')) as { type: string; filter_logic: string } | undefined;
        if (!def || def.filter_logic === 'disabled' || def.type === 'json') return { op: 'and', nodes: [] };
        // Every value is parsed here, before any SQL is built: a bad one is a 400 naming the parameter.
        const empty = suffix === 'empty' ? bool(lastValue(values)) : undefined;
        const parts = suffix === 'empty' ? [] : values.map((v) => condition(def.type, def.filter_logic, suffix, v));
        if (suffix === 'regex' || suffix === 'iregex') for (const v of values) await checkRegex(ctx.db, v);
        const sqlCondition: SqlCondition = (qb, alias, model, db) => {
          const typeId = db('core_objecttype').select('id').where({ app_label: model.app, model: model.name });
          const rows = (where: (q: Knex.QueryBuilder) => void) =>
            db(`${CUSTOM_FIELD_DATA} as d`).select('d.object_id').whereIn('d.object_type_id', typeId).where(where);
          if (empty !== undefined) {
            const filled = rows((q) => q.whereRaw(`coalesce(d.data ->> ?, '') <> ''`, [name]));
            if (empty) qb.whereNotIn(`${alias}.id`, filled);
            else qb.whereIn(`${alias}.id`, filled);
            return;
          }
          const matching = rows((q) => {
            for (const part of parts) q.orWhereRaw(part.sql.replace(/:name/g, '?'), substitute(part.sql, name, part.bindings));
          });
          if (parts[0]?.negate) qb.whereNotIn(`${alias}.id`, matching);
          else qb.whereIn(`${alias}.id`, matching);
        };
        return { op: 'sql', condition: sqlCondition };
      },
    };
  },
};

/** Bindings in order of appearance: the field name for each `:name`, the values for each `?`. */
function substitute(sql: string, name: string, values: Knex.Value[]): Knex.Value[] {
  const out: Knex.Value[] = [];
  let next = 0;
  for (const token of sql.match(/:name|\?/g) ?? []) out.push(token === ':name' ? name : values[next++]);
  return out;
}
