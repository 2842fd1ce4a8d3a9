/** The `tojson` filter: Python's json.dumps(sort_keys=True, indent=...) made HTML-safe, as Jinja's htmlsafe_json_dumps. */
import { floatRepr } from './decimal.js';
import { dictItems } from './dicts.js';
import { raise } from './errors.js';
import { sortCompare } from './protocol.js';
import { intStr, typeName } from './python.js';
import { Float, isDict, isNumber, toNumber } from './values.js';

function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    const code = s.charCodeAt(i);
    if (c === '"') out += '\\"';
    else if (c === '\\') out += '\\\\';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (c === '\b') out += '\\b';
    else if (c === '\f') out += '\\f';
    else if (code < 0x20 || code > 0x7e) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += c;
  }
  return out + '"';
}

function number(v: number | Float | boolean): string {
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const n = toNumber(v);
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  return v instanceof Float || !Number.isInteger(n) ? floatRepr(n) : intStr(n);
}

function key(k: unknown): string {
  if (typeof k === 'string') return k;
  if (k === null) return 'null';
  if (isNumber(k)) return number(k);
  raise('TypeError', `keys must be str, int, float, bool or None, not ${typeName(k)}`);
}

function encode(v: unknown, indent: string | null, level: number, seen: Set<object>): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return quote(v);
  if (isNumber(v)) return number(v);
  const isList = Array.isArray(v);
  if (!isList && !isDict(v)) raise('TypeError', `Object of type ${typeName(v)} is not JSON serializable`);
  if (seen.has(v)) raise('ValueError', 'Circular reference detected');
  seen.add(v);
  const items = isList
    ? v.map((x: unknown) => encode(x, indent, level + 1, seen))
    : dictItems(v)
        .sort((a, b) => sortCompare(a[0], b[0]))
        .map(([k, x]) => `${quote(key(k))}: ${encode(x, indent, level + 1, seen)}`);
  seen.delete(v);
  const [open, close] = isList ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return open + close;
  if (indent === null) return open + items.join(', ') + close;
  const inner = '\n' + indent.repeat(level + 1);
  return open + inner + items.join(',' + inner) + '\n' + indent.repeat(level) + close;
}

/** `indent`: null, a number of spaces or a string, as json.dumps takes it. */
export function toJson(value: unknown, indent: unknown): string {
  const ind =
    indent === null || indent === undefined
      ? null
      : typeof indent === 'string'
        ? indent
        : ' '.repeat(Math.max(0, toNumber(indent as number)));
  return encode(value, ind, 0, new Set())
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/'/g, '\\u0027');
}
