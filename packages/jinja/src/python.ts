/** Python's str(), repr() and type names of template values, and Undefined's messages. */
import { floatRepr } from './decimal.js';
import { dictItems } from './dicts.js';
import { raise } from './errors.js';
import { isTemplateHost } from './host.js';
import { charge, chargeStr, concatenated, ITEM_BYTES } from './meter.js';
import { reprStr } from './pystring.js';
import {
  DictView,
  Float,
  isPlainObject,
  isTuple,
  PyDict,
  PyFunction,
  PyIterator,
  PyObject,
  PyRange,
  Undefined,
} from './values.js';

export function intStr(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : BigInt(n).toString();
}

const UNDEFINED_CLASSES = {
  default: 'Undefined',
  strict: 'StrictUndefined',
  chainable: 'ChainableUndefined',
  debug: 'DebugUndefined',
};

/** Python's `type(v).__name__`. */
export function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (v instanceof Float) return 'float';
  if (typeof v === 'string') return 'str';
  if (isTuple(v)) return 'tuple';
  if (Array.isArray(v)) return 'list';
  if (v instanceof PyDict || isPlainObject(v)) return 'dict';
  if (v instanceof Undefined) return UNDEFINED_CLASSES[v.kind];
  if (v instanceof PyRange) return 'range';
  if (v instanceof DictView) return `dict_${v.kind}`;
  if (v instanceof PyIterator) return v.typeName;
  if (v instanceof PyObject) return v.typeName.slice(v.typeName.lastIndexOf('.') + 1);
  if (v instanceof PyFunction || typeof v === 'function') return 'function';
  return (isTemplateHost(v) && v.typeName) || 'object';
}

/** Jinja's object_type_repr: how an Undefined names the object an attribute was missing from. */
export function objectTypeRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  return `${v instanceof PyObject ? v.typeName : typeName(v)} object`;
}

function undefinedMessage(u: Undefined): string {
  if (u.hint !== null) return u.hint;
  if (u.owner === null) return `${pyRepr(u.name)} is undefined`;
  if (typeof u.name !== 'string') return `${u.owner} has no element ${pyRepr(u.name)}`;
  return `${reprStr(u.owner)} has no attribute ${reprStr(u.name)}`;
}

/** Using an Undefined the way Jinja's Undefined refuses to be used. */
export function failUndefined(u: Undefined): never {
  raise(u.unsafe ? 'SecurityError' : 'UndefinedError', undefinedMessage(u));
}

function undefinedStr(u: Undefined): string {
  if (u.kind === 'strict') failUndefined(u);
  if (u.kind !== 'debug') return '';
  if (u.hint !== null) return `{{ undefined value printed: ${u.hint} }}`;
  if (u.owner === null) return `{{ ${pyStr(u.name)} }}`;
  return `{{ no such element: ${u.owner}[${pyRepr(u.name)}] }}`;
}

/** Python's str(): what `{{ value }}` prints. */
export function pyStr(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Undefined) return undefinedStr(v);
  if (isTemplateHost(v)) return v.toString();
  if (v instanceof PyObject) return v.str(pyRepr);
  return pyRepr(v);
}

/** Python's repr(): how values print inside lists and dicts. */
export function pyRepr(v: unknown): string {
  return repr(v, new Set());
}

/** A number's repr: a new string, short enough to charge once made. */
function numberRepr(n: number, integer: boolean): string {
  const out = integer ? intStr(n) : floatRepr(n);
  chargeStr(out.length);
  return out;
}

/**
 * repr() of each item, charged as it is made with the characters the container's join will copy of it: a list holding
 * the same big value many times must be refused while its repr is being built, not once it is.
 */
function reprs<T>(items: readonly T[], f: (item: T) => string): string[] {
  const out: string[] = [];
  for (const item of items) {
    const r = f(item);
    charge(ITEM_BYTES + 2 * r.length);
    out.push(r);
  }
  return out;
}

/** Joins what `reprs` made (and charged): only the separators are new here. */
function joinReprs(items: readonly string[], sep: string): string {
  chargeStr(sep.length * (items.length - 1));
  return items.join(sep);
}

function repr(v: unknown, seen: Set<object>): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return numberRepr(v, Number.isInteger(v));
  if (v instanceof Float) return numberRepr(v.value, false);
  if (typeof v === 'string') return reprStr(v);
  if (v instanceof Undefined) return 'Undefined';
  if (isTemplateHost(v)) return v.repr?.() ?? v.toString();
  if (v instanceof PyFunction) return v.repr;
  if (v instanceof PyObject) return v.repr((x) => repr(x, seen));
  if (v instanceof PyRange) return `range(${v.start}, ${v.stop}${v.step === 1 ? '' : `, ${v.step}`})`;
  if (v instanceof PyIterator) return v.repr;
  if (typeof v !== 'object') return `<${typeof v}>`;
  if (seen.has(v)) return Array.isArray(v) ? '[...]' : '{...}';
  seen.add(v);
  try {
    if (Array.isArray(v)) {
      const items = reprs(v, (x) => repr(x, seen));
      if (!isTuple(v)) return concatenated(['[', joinReprs(items, ', '), ']']);
      return concatenated(items.length === 1 ? ['(', items[0], ',)'] : ['(', joinReprs(items, ', '), ')']);
    }
    if (v instanceof DictView) {
      const items = reprs(dictItems(v.dict), ([k, x]) =>
        v.kind === 'keys'
          ? repr(k, seen)
          : v.kind === 'values'
            ? repr(x, seen)
            : concatenated(['(', repr(k, seen), ', ', repr(x, seen), ')']),
      );
      return concatenated([`dict_${v.kind}([`, joinReprs(items, ', '), '])']);
    }
    if (v instanceof PyDict || isPlainObject(v)) {
      const items = reprs(dictItems(v), ([k, x]) => concatenated([repr(k, seen), ': ', repr(x, seen)]));
      return concatenated(['{', joinReprs(items, ', '), '}']);
    }
    return '<object>';
  } finally {
    seen.delete(v);
  }
}
