/** The `tojson` filter: Python's json.dumps(sort_keys=True, indent=...) made HTML-safe, as Jinja's htmlsafe_json_dumps. */
import { floatRepr } from './decimal.js';
import { dictItems } from './dicts.js';
import { raise } from './errors.js';
import { charge, chargeStr, concatenated, ITEM_BYTES, replaceCharged } from './meter.js';
import { sortCompare } from './protocol.js';
import { intStr, typeName } from './python.js';
import { Float, isDict, isNumber, toNumber } from './values.js';

const JSON_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};
/** What json.dumps escapes (ensure_ascii), and what htmlsafe_json_dumps escapes after it (<, >, &, '). */
const JSON_ESCAPED = /["\\\x00-\x1f\x7f-\uffff]/g;
const HTML_UNSAFE = /[<>&']/g;

function unicodeEscape(c: string): string {
  return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
}

/** One replacement pass (appending a character at a time would make a rope cell each). */
function quote(s: string): string {
  return concatenated(['"', replaceCharged(s, JSON_ESCAPED, (c) => JSON_ESCAPES[c] ?? unicodeEscape(c)), '"']);
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
  // Each item charged as it is encoded, with what the join will copy of it: a list holding one big value many times
  // is refused while it is encoded.
  const items: string[] = [];
  const push = (item: string) => {
    charge(ITEM_BYTES + 2 * item.length);
    items.push(item);
  };
  const join = (sep: string) => {
    chargeStr(sep.length * (items.length - 1));
    return items.join(sep);
  };
  if (isList) for (const x of v) push(encode(x, indent, level + 1, seen));
  else {
    const pairs = dictItems(v).sort((a, b) => sortCompare(a[0], b[0]));
    for (const [k, x] of pairs) push(concatenated([quote(key(k)), ': ', encode(x, indent, level + 1, seen)]));
  }
  seen.delete(v);
  const [open, close] = isList ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return open + close;
  if (indent === null) return concatenated([open, join(', '), close]);
  chargeStr(indent.length * (2 * level + 1));
  const inner = '\n' + indent.repeat(level + 1);
  return concatenated([open, inner, join(',' + inner), '\n' + indent.repeat(level), close]);
}

/** `indent`: null, a number of spaces or a string, as json.dumps takes it. */
export function toJson(value: unknown, indent: unknown): string {
  let ind: string | null = null;
  if (typeof indent === 'string') ind = indent;
  else if (indent !== null && indent !== undefined) {
    const width = Math.max(0, toNumber(indent as number));
    chargeStr(width);
    ind = ' '.repeat(width);
  }
  return replaceCharged(encode(value, ind, 0, new Set()), HTML_UNSAFE, unicodeEscape);
}
