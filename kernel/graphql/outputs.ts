import type { PropertyDescription, ValueSchema } from '../model/description.js';
import type { Json } from '../base/types.js';

/** A key's GraphQL output type and how the value REST renders becomes the value GraphQL answers. */
export interface Output {
  type: string;
  convert(value: Json): unknown;
  /**
   * The same conversion in SQL, of the expression giving REST's value: what `convert` answers, as JSON writes it.
   * Undefined where only `convert` can (a datetime's offset, a decimal's places).
   */
  sql?(expr: string): string;
}

const same = (value: Json) => value;
const unchanged = (expr: string) => expr;

/** REST's `…Z` as NetBox's GraphQL renders datetimes (Python's isoformat: `…+00:00`). */
const isoformat = (value: Json) => (typeof value === 'string' ? value.replace(/Z$/, '+00:00') : value);

/** The scalar type of a value that is no relation, as NetBox renders it in GraphQL. */
function scalarOf(v: ValueSchema): Output {
  if (v.scalar === 'ID') return { type: 'ID', convert: (value) => (value === null ? null : String(value)), sql: (expr) => `(${expr})::text` };
  if (v.scalar) return { type: v.scalar, convert: same };
  // Choices come out as the stored value, not {value, label}.
  if (v.choices && v.labelled) {
    return { type: v.type === 'integer' ? 'Int' : 'String', convert: (value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value.value : value) };
  }
  switch (v.type) {
    case 'string':
      if (v.format === 'date-time') return { type: 'DateTime', convert: isoformat };
      if (v.format === 'date') return { type: 'Date', convert: same };
      return { type: 'String', convert: same, sql: unchanged };
    case 'integer':
      return { type: v.format === 'int64' ? 'BigInt' : 'Int', convert: same, sql: unchanged };
    case 'number':
      if (v.format === 'decimal') {
        const places = v.decimalPlaces ?? 0;
        return { type: 'Decimal', convert: (value) => (value === null ? null : Number(value).toFixed(places)) };
      }
      return { type: 'Float', convert: same };
    case 'boolean':
      return { type: 'Boolean', convert: same, sql: unchanged };
    case 'array':
      if (v.items && v.items.type !== 'object' && v.items.type !== 'array' && v.items.type !== 'json') {
        const item = scalarOf(v.items);
        return { type: `[${item.type}]`, convert: (value) => (Array.isArray(value) ? value.map(item.convert) : value) };
      }
      return { type: 'JSON', convert: same };
    default:
      return { type: 'JSON', convert: same };
  }
}

/**
 * A described key that names no object as a GraphQL output: not null where the stored value never is (the key's
 * own column, NOT NULL), else nullable, so that a computed value that happens to be missing reads as null.
 */
export function scalarOutput(p: PropertyDescription): Output {
  const scalar = scalarOf(p);
  const stored = !p.readOnly || p.key === 'id';
  if (!stored || p.nullable) return scalar;
  // A blank choice REST reads as null is the empty string GraphQL answers.
  if (p.choices && p.labelled) return { type: `${scalar.type}!`, convert: (value: Json) => scalar.convert(value) ?? '' };
  return { ...scalar, type: `${scalar.type}!` };
}
