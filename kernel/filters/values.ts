import { parseDate, parseDateTime } from '../base/time.js';
import { INT_MAX } from '../base/values.js';
import { ParamError } from './errors.js';

/** Query-string values parsed with django-filter's messages; each throws a ParamError (a 400 naming the parameter). */

const invalidChoice = (v: string) => new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);

export function parseBoolean(value: string): boolean {
  if (/^(true|1|yes|on)$/i.test(value)) return true;
  if (/^(false|0|no|off)$/i.test(value)) return false;
  throw invalidChoice(value);
}

/** A whole number that fits PostgreSQL's integer. */
export function parseWholeNumber(value: string): number {
  const text = value.trim();
  if (!/^-?\d+$/.test(text) || Math.abs(Number(text)) > INT_MAX) throw new ParamError('Enter a whole number.');
  return Number(text);
}

export function parseNumber(value: string): number {
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n)) throw new ParamError('Enter a number.');
  return n;
}

export function parseDateParam(value: string): string {
  const d = parseDate(value);
  if (!d) throw new ParamError('Enter a valid date.');
  return d;
}

export function parseDateTimeParam(value: string): string {
  const d = parseDateTime(value);
  if (!d) throw new ParamError('Enter a valid date/time.');
  return d;
}
