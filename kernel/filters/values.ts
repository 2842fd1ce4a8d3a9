import { parseDate, parseDateTime } from '../model/fields/time.js';
import type { FilterKind } from '../model/field.js';

/** A query-string value that cannot be used; becomes 400 `{param: [message]}`. */
export class ParamError extends Error {}

const invalidChoice = (v: string) => new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);

export function parseBoolean(value: string): boolean {
  if (/^(true|1|yes|on)$/i.test(value)) return true;
  if (/^(false|0|no|off)$/i.test(value)) return false;
  throw invalidChoice(value);
}

/** Parses one query-string value for a field of `kind`, with django-filter's messages. */
export function parseValue(kind: FilterKind, value: string): unknown {
  switch (kind) {
    case 'integer':
    case 'fk':
    case 'm2m': {
      const text = value.trim();
      if (!/^-?\d+$/.test(text) || Math.abs(Number(text)) > 2147483647) throw new ParamError('Enter a whole number.');
      return Number(text);
    }
    case 'decimal': {
      const n = Number(value.trim());
      if (value.trim() === '' || !Number.isFinite(n)) throw new ParamError('Enter a number.');
      return n;
    }
    case 'date': {
      const d = parseDate(value);
      if (!d) throw new ParamError('Enter a valid date.');
      return d;
    }
    case 'datetime': {
      const d = parseDateTime(value);
      if (!d) throw new ParamError('Enter a valid date/time.');
      return d;
    }
    case 'boolean':
      return parseBoolean(value);
    default:
      return value;
  }
}
