/** Python's float() and int() conversions, as the float, int, round and filesizeformat filters use them. */
import { raise } from './errors.js';
import { chargeStr } from './meter.js';
import { failUndefined, pyRepr, typeName } from './python.js';
import { strip } from './pystring.js';
import { isFloat, isNumber, toNumber, Undefined } from './values.js';

const DIGITS = '\\d(?:_?\\d)*';
const FLOAT = new RegExp(
  `^[+-]?(?:(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:e[+-]?${DIGITS})?|inf|infinity|nan)$`,
  'i',
);

/** Python's float(v). */
export function pyFloat(v: unknown): number {
  if (isNumber(v)) return toNumber(v);
  if (v instanceof Undefined) failUndefined(v);
  if (typeof v !== 'string')
    raise('TypeError', `float() argument must be a string or a real number, not '${typeName(v)}'`);
  const s = strip(v, null, 'both');
  if (!FLOAT.test(s)) raise('ValueError', `could not convert string to float: ${pyRepr(v)}`);
  chargeStr(2 * s.length);
  const lower = s.toLowerCase().replace(/_/g, '');
  if (lower.endsWith('inf') || lower.endsWith('infinity')) return lower.startsWith('-') ? -Infinity : Infinity;
  if (lower.endsWith('nan')) return NaN;
  return Number(lower);
}

/** Python's int(v) for a number, int(v, base) for a string. */
export function pyInt(v: unknown, base = 10): number {
  if (typeof v === 'string') return parseIntLiteral(v, base);
  if (v instanceof Undefined) failUndefined(v);
  if (!isNumber(v))
    raise('TypeError', `int() argument must be a string, a bytes-like object or a real number, not '${typeName(v)}'`);
  const n = toNumber(v);
  if (isFloat(v) && Number.isNaN(n)) raise('ValueError', 'cannot convert float NaN to integer');
  if (!Number.isFinite(n)) raise('OverflowError', 'cannot convert float infinity to integer');
  return Math.trunc(n) || 0;
}

function parseIntLiteral(v: string, base: number): number {
  const invalid = () => raise('ValueError', `invalid literal for int() with base ${base}: ${pyRepr(v)}`);
  if (base !== 0 && (base < 2 || base > 36)) raise('ValueError', 'int() base must be >= 2 and <= 36, or 0');
  const m = /^([+-]?)(.*)$/s.exec(strip(v, null, 'both')) ?? invalid();
  // Lower-cased, then without underscores: two copies.
  chargeStr(2 * m[2].length);
  let body = m[2].toLowerCase();
  let b = base;
  const prefix = /^0([box])_?/.exec(body);
  const prefixBase = prefix ? { b: 2, o: 8, x: 16 }[prefix[1] as 'b' | 'o' | 'x'] : null;
  if (prefix && (base === 0 || base === prefixBase)) {
    b = prefixBase ?? b;
    body = body.slice(prefix[0].length);
  } else if (base === 0) {
    if (/^0+(_?0)*$/.test(body)) return 0;
    if (body.startsWith('0')) invalid();
    b = 10;
  }
  const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, b);
  if (!new RegExp(`^[${digits}](_?[${digits}])*$`).test(body)) invalid();
  const n = Number.parseInt(body.replace(/_/g, ''), b);
  return m[1] === '-' ? -n || 0 : n;
}
