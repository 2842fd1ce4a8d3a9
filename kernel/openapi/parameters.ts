import type { QueryFilter } from '../filters/builders.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { ParameterObject, SchemaObject } from './types.js';

const query = (name: string, schema: SchemaObject, description?: string): ParameterObject => ({ name, in: 'query', schema, ...(description ? { description } : {}) });

/** What every list takes besides its filters. */
export const LIST_PARAMETERS: ParameterObject[] = [
  query('limit', { type: 'integer', minimum: 0 }, 'Number of results to return per page (0: MAX_PAGE_SIZE).'),
  query('offset', { type: 'integer', minimum: 0 }, 'The initial index from which to return the results.'),
  query('start', { type: 'integer', minimum: 0 }, 'Cursor pagination: objects from this id on (count is null).'),
  query('ordering', { type: 'string' }, 'Which fields to order by, comma-separated; a leading `-` reverses.'),
  query('brief', { type: 'boolean' }, 'The brief form of each object.'),
  query('fields', { type: 'string' }, 'Only these keys of each object, comma-separated.'),
  query('omit', { type: 'string' }, 'Every key of each object but these, comma-separated.'),
  query('exclude', { type: 'string' }, 'Keys to leave out (`config_context`), comma-separated.'),
];

/** Lookups that compare text whatever the field's type, and the one that takes a flag. */
const TEXT_SUFFIXES = new Set(['ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'regex', 'iregex']);

/** The value a filter takes: its own declaration, else the field of the same name's, else an id for `_id`, else text. */
function filterValue(model: Model, name: string, filter: QueryFilter, registry: ModelRegistry): SchemaObject {
  const declared = filter.value ?? registry.fieldOf(model, name)?.describe(registry).find((p) => p.key === name && !p.relation);
  if (declared) {
    if (declared.choices) return { type: declared.choices.every((c) => typeof c.value === 'number') ? 'integer' : 'string', enum: declared.choices.map((c) => c.value) };
    if (declared.type === 'boolean' || declared.type === 'integer' || declared.type === 'number') return { type: declared.type };
    if (declared.format === 'decimal') return { type: 'number' };
    if (declared.format === 'date' || declared.format === 'date-time') return { type: 'string', format: declared.format };
    return { type: 'string' };
  }
  return name.endsWith('_id') ? { type: 'integer' } : { type: 'string' };
}

/** One parameter per filter and lookup the DSL accepts for the model, repeatable where the filter takes several values. */
export function filterParameters(model: Model, filters: Map<string, QueryFilter>, registry: ModelRegistry): ParameterObject[] {
  const out: ParameterObject[] = [];
  const many = (value: SchemaObject): SchemaObject => (value.type === 'boolean' ? value : { type: 'array', items: value });
  for (const [name, filter] of [...filters].sort(([a], [b]) => a.localeCompare(b))) {
    const value = filterValue(model, name, filter, registry);
    out.push({ ...query(name, name === 'q' ? { type: 'string' } : many(value), name === 'q' ? 'Search' : undefined), explode: true, style: 'form' });
    for (const suffix of filter.suffixes) {
      const lookup: SchemaObject = suffix === 'empty' ? { type: 'boolean' } : TEXT_SUFFIXES.has(suffix) ? { type: 'string' } : value;
      out.push({ ...query(`${name}__${suffix}`, many(lookup)), explode: true, style: 'form' });
    }
  }
  return out;
}
