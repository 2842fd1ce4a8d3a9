/** Python's object protocols over template values: truth, iteration, len(), ==, ordering, `in`. */
import { dictGet, dictItems, dictKeys, dictSize } from './dicts.js';
import { raise } from './errors.js';
import { isTemplateHost, type TemplateHost } from './host.js';
import { charge, chargeList, ITEM_BYTES, PUSHED_LIST_BYTES } from './meter.js';
import { failUndefined, typeName } from './python.js';
import { chars, compareStr, strLength } from './pystring.js';
import {
  DictView,
  isDict,
  isList,
  isNumber,
  isTuple,
  MISSING,
  PyDict,
  PyIterator,
  PyRange,
  toNumber,
  tuple,
  Undefined,
} from './values.js';

function hostLength(v: TemplateHost): number | null {
  return typeof v.length === 'function' ? v.length() : null;
}

export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === '') return false;
  if (typeof v === 'number') return v !== 0;
  if (isNumber(v)) return toNumber(v) !== 0;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Undefined) {
    if (v.kind === 'strict') failUndefined(v);
    return false;
  }
  if (isDict(v)) return dictSize(v) > 0;
  if (v instanceof DictView) return dictSize(v.dict) > 0;
  if (v instanceof PyRange) return v.length > 0;
  if (isTemplateHost(v)) return (hostLength(v) ?? 1) > 0;
  return true;
}

/** An iterator that, unlike a for-of over a generator, leaves the generator open when the loop breaks. */
function resumable(it: Iterator<unknown>): Iterable<unknown> {
  return { [Symbol.iterator]: () => ({ next: () => it.next() }) };
}

/** Python's iter(). */
export function iterate(v: unknown): Iterable<unknown> {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return v;
  if (isDict(v)) return dictKeys(v);
  if (v instanceof PyRange) return v;
  if (v instanceof PyIterator) return resumable(v.iterator);
  if (v instanceof DictView) {
    if (v.kind === 'keys') return dictKeys(v.dict);
    const items = dictItems(v.dict);
    chargeList(items.length);
    return v.kind === 'values' ? items.map(([, x]) => x) : items.map(toTuple);
  }
  if (v instanceof Undefined) {
    if (v.kind === 'strict') failUndefined(v);
    return [];
  }
  if (isTemplateHost(v) && typeof v[Symbol.iterator] === 'function')
    return { [Symbol.iterator]: () => hostIterator(v) };
  raise('TypeError', `'${typeName(v)}' object is not iterable`);
}

function hostIterator(v: TemplateHost): Iterator<unknown> {
  const make = v[Symbol.iterator];
  if (make === undefined) raise('TypeError', `'${typeName(v)}' object is not iterable`);
  return make.call(v);
}

function toTuple([k, v]: [unknown, unknown]): readonly unknown[] {
  return tuple([k, v]);
}

/** Python's list(v): a new list, charged before it is copied, or item by item from an iterator. */
export function toList(v: unknown): unknown[] {
  if (Array.isArray(v)) {
    chargeList(v.length);
    return v.slice();
  }
  if (typeof v === 'string') return chars(v);
  if (v instanceof PyRange) chargeList(v.length);
  else charge(PUSHED_LIST_BYTES);
  const out: unknown[] = [];
  for (const x of iterate(v)) {
    if (!(v instanceof PyRange)) charge(ITEM_BYTES);
    out.push(x);
  }
  return out;
}

/** Python's len(). */
export function pyLen(v: unknown): number {
  if (typeof v === 'string') return strLength(v);
  if (Array.isArray(v)) return v.length;
  if (isDict(v)) return dictSize(v);
  if (v instanceof DictView) return dictSize(v.dict);
  if (v instanceof PyRange) return v.length;
  if (v instanceof Undefined) {
    if (v.kind === 'strict') failUndefined(v);
    return 0;
  }
  const n = isTemplateHost(v) ? hostLength(v) : null;
  if (n === null) raise('TypeError', `object of type '${typeName(v)}' has no len()`);
  return n;
}

/** Python's ==. */
export function eq(a: unknown, b: unknown): boolean {
  if (a instanceof Undefined || b instanceof Undefined) {
    for (const u of [a, b]) if (u instanceof Undefined && u.kind === 'strict') failUndefined(u);
    return a instanceof Undefined && b instanceof Undefined;
  }
  if (a === b) return true;
  if (isNumber(a) && isNumber(b)) return toNumber(a) === toNumber(b);
  if ((isList(a) && isList(b)) || (isTuple(a) && isTuple(b))) {
    return a.length === b.length && a.every((x, i) => eq(x, b[i]));
  }
  if (isDict(a) && isDict(b)) {
    if (dictSize(a) !== dictSize(b)) return false;
    return dictItems(a).every(([k, v]) => {
      const other = dictGet(b, k);
      return other !== MISSING && eq(v, other);
    });
  }
  if (a instanceof PyRange && b instanceof PyRange) {
    return a.length === b.length && (a.length === 0 || (a.start === b.start && (a.length === 1 || a.step === b.step)));
  }
  return false;
}

export type CompareOp = '<' | '<=' | '>' | '>=';

/** Python's ordering comparisons; unorderable types raise TypeError. */
export function order(op: CompareOp, a: unknown, b: unknown): boolean {
  for (const u of [a, b]) if (u instanceof Undefined) failUndefined(u);
  let c: number | null = null;
  if (isNumber(a) && isNumber(b)) {
    const [x, y] = [toNumber(a), toNumber(b)];
    c = x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
  } else if (typeof a === 'string' && typeof b === 'string') c = compareStr(a, b);
  else if ((isList(a) && isList(b)) || (isTuple(a) && isTuple(b))) {
    const i = a.findIndex((x, j) => j >= b.length || !eq(x, b[j]));
    if (i >= 0 && i < b.length) return order(op, a[i], b[i]);
    c = a.length - b.length;
  }
  if (c === null)
    raise('TypeError', `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  if (Number.isNaN(c)) return false;
  return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
}

/** A comparator for Array.prototype.sort (stable, like Python's sort) using only `<`, as Python does. */
export function sortCompare(a: unknown, b: unknown): number {
  return order('<', a, b) ? -1 : order('<', b, a) ? 1 : 0;
}

/** Python's `item in container`. */
export function contains(container: unknown, item: unknown): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string')
      raise('TypeError', `'in <string>' requires string as left operand, not ${typeName(item)}`);
    return container.includes(item);
  }
  if (isDict(container)) return dictGet(container, item) !== MISSING;
  if (container instanceof DictView && container.kind === 'keys') return dictGet(container.dict, item) !== MISSING;
  if (container instanceof DictView && container.kind === 'values' && container.dict instanceof PyDict) {
    // Without a copy of the values: `x in d.values()` in a loop would otherwise copy the dict every time.
    for (const [, v] of container.dict.entries.values()) if (eq(v, item)) return true;
    return false;
  }
  if (container instanceof PyRange) {
    if (!isNumber(item)) return false;
    const n = toNumber(item);
    const i = (n - container.start) / container.step;
    return Number.isInteger(i) && i >= 0 && i < container.length;
  }
  if (container instanceof Undefined) {
    if (container.kind === 'strict') failUndefined(container);
    return false;
  }
  if (container === null || isNumber(container)) {
    raise('TypeError', `argument of type '${typeName(container)}' is not iterable`);
  }
  for (const x of iterate(container)) if (eq(x, item)) return true;
  return false;
}
