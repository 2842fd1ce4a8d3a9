/**
 * The only way a template reaches into a value: `x.y`, `x[y]`, `x(...)`, and every filter that looks attributes up
 * (attr, map, selectattr, sort, groupby, ...) comes through getattr/getitem/callValue here. Nothing is looked up on a
 * JavaScript object by a name from the template except:
 *   - own data properties of JSON objects (dicts; never the prototype, never getters) and indexes of arrays/strings;
 *   - the Python methods in methods.ts (one Map per type, so `constructor` or `__proto__` is simply absent);
 *   - the attributes the engine's own objects declare (loop, namespace, cycler, module);
 *   - what a TemplateHost answers through `host[HOST](name)`.
 * Names shaped like Python dunders (`__class__`, `__proto__`) are refused as Jinja's sandbox refuses them. Hosts are
 * never asked for a name starting with `_` or one Object.prototype defines (`constructor`, `toString`, ...), so even
 * a host that answers with a plain `obj[key]` cannot hand out a constructor. Calls reach only PyFunctions built here
 * and functions hosts answer, which are called without `this`.
 */
import { dictGet, dictItems } from './dicts.js';
import type { Environment } from './environment.js';
import { PyError, raise } from './errors.js';
import { HOST, isTemplateHost, keywordArguments } from './host.js';
import { charge, chargeList, DICT_BYTES, entryBytes, joined, sliceBytes } from './meter.js';
import { methodOf } from './methods.js';
import { toList } from './protocol.js';
import { failUndefined, objectTypeRepr, typeName } from './python.js';
import { chars, hasSurrogates, reprStr } from './pystring.js';
import {
  DictView,
  Float,
  isDict,
  isFloat,
  isGroupTuple,
  isNumber,
  isPlainObject,
  isTuple,
  makeFloat,
  MISSING,
  Namespace,
  PyDict,
  PyFunction,
  PyIterator,
  PyObject,
  PyRange,
  toNumber,
  tuple,
  Undefined,
  type Kwargs,
} from './values.js';

/** A `start:stop:step` subscript. */
export class SliceValue {
  constructor(
    readonly start: unknown,
    readonly stop: unknown,
    readonly step: unknown,
  ) {}
}

const DUNDER = /^__.*__$/;
const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

function unsafe(env: Environment, obj: unknown, name: string): Undefined {
  const hint = `access to attribute ${reprStr(name)} of ${reprStr(typeName(obj))} object is unsafe.`;
  return env.undefined(hint, objectTypeRepr(obj), name, true);
}

/** A Python attribute proper (no item fallback); MISSING when the object has none by that name. */
export function attribute(env: Environment, obj: unknown, name: string): unknown {
  if (isTemplateHost(obj)) {
    if (name.startsWith('_') || OBJECT_MEMBERS.has(name)) return unsafe(env, obj, name);
    const value = obj[HOST](name);
    return value === undefined ? MISSING : value;
  }
  if (DUNDER.test(name)) return unsafe(env, obj, name);
  if (obj instanceof PyObject) return obj.attribute(name);
  if (isGroupTuple(obj) && (name === 'grouper' || name === 'list')) return obj[name === 'grouper' ? 0 : 1];
  if (obj instanceof PyRange && (name === 'start' || name === 'stop' || name === 'step')) return obj[name];
  if (isNumber(obj) && (name === 'real' || name === 'imag')) {
    const value = name === 'real' ? toNumber(obj) : 0;
    return isFloat(obj) ? makeFloat(value) : value;
  }
  return methodOf(env, obj, name);
}

function isIndex(key: unknown): key is number | boolean {
  return typeof key === 'boolean' || (typeof key === 'number' && Number.isInteger(key));
}

/** The first index a slice picks, its step and how many it picks. */
function sliceIndices(length: number, s: SliceValue): { start: number; step: number; count: number } {
  const bound = (v: unknown, name: string): number | null => {
    if (v === null || v === undefined) return null;
    if (!isIndex(v)) raise('TypeError', `slice ${name} must be an integer or None`);
    return Number(v);
  };
  const step = bound(s.step, 'step') ?? 1;
  if (step === 0) raise('ValueError', 'slice step cannot be zero');
  const clamp = (v: number | null, dflt: number) => {
    if (v === null) return dflt;
    if (v < 0) return Math.max(v + length, step < 0 ? -1 : 0);
    return Math.min(v, step < 0 ? length - 1 : length);
  };
  const start = clamp(bound(s.start, 'start'), step < 0 ? length - 1 : 0);
  const stop = clamp(bound(s.stop, 'stop'), step < 0 ? -1 : length);
  const count = step > 0 ? Math.ceil((stop - start) / step) : Math.ceil((start - stop) / -step);
  return { start, step, count: Math.max(0, count) };
}

function sliced(obj: unknown, s: SliceValue): unknown {
  if (obj instanceof PyRange) {
    const { start, count } = sliceIndices(obj.length, s);
    const step = (s.step === null || s.step === undefined ? 1 : Number(s.step)) * obj.step;
    return count === 0 ? new PyRange(0, 0, 1) : new PyRange(obj.at(start), obj.at(start) + count * step, step);
  }
  if (typeof obj === 'string' && !hasSurrogates(obj)) {
    const { start, step, count } = sliceIndices(obj.length, s);
    if (step === 1) {
      charge(sliceBytes(count));
      return obj.slice(start, start + count);
    }
  }
  const items = typeof obj === 'string' ? chars(obj) : Array.isArray(obj) ? obj : toList(obj);
  const { start, step, count } = sliceIndices(items.length, s);
  chargeList(count);
  const picked = new Array<unknown>(count);
  for (let k = 0; k < count; k++) picked[k] = items[start + k * step];
  if (typeof obj === 'string') return joined(picked as string[]);
  return isTuple(obj) ? tuple(picked) : picked;
}

/** Python's `obj[key]` alone (no attribute fallback); MISSING where Python raises a TypeError or LookupError. */
function item(obj: unknown, key: unknown): unknown {
  try {
    if (isDict(obj)) return dictGet(obj, key);
    const sequence = typeof obj === 'string' || Array.isArray(obj) || obj instanceof PyRange;
    if (!sequence && !(isTemplateHost(obj) && typeof obj[Symbol.iterator] === 'function')) return MISSING;
    if (key instanceof SliceValue) return sliced(obj, key);
    if (!isIndex(key)) return MISSING;
    if (typeof obj === 'string' && !hasSurrogates(obj)) {
      const i = Number(key) < 0 ? Number(key) + obj.length : Number(key);
      return i < 0 || i >= obj.length ? MISSING : obj[i];
    }
    const items =
      typeof obj === 'string' ? chars(obj) : obj instanceof PyRange ? null : Array.isArray(obj) ? obj : toList(obj);
    const length = items === null ? (obj as PyRange).length : items.length;
    const i = Number(key) < 0 ? Number(key) + length : Number(key);
    if (i < 0 || i >= length) return MISSING;
    return items === null ? (obj as PyRange).at(i) : items[i];
  } catch (e) {
    if (e instanceof PyError && e.type === 'TypeError') return MISSING;
    throw e;
  }
}

/** `obj.name`: Jinja's sandboxed getattr (attribute, then item). */
export function getattr(env: Environment, obj: unknown, name: string): unknown {
  if (obj instanceof Undefined) return obj.kind === 'chainable' ? obj : failUndefined(obj);
  const found = attribute(env, obj, name);
  if (found !== MISSING) return found;
  const value = item(obj, name);
  return value !== MISSING ? value : env.undefined(null, objectTypeRepr(obj), name);
}

/** `obj[key]`: Jinja's sandboxed getitem (item, then attribute for a string key). */
export function getitem(env: Environment, obj: unknown, key: unknown): unknown {
  if (obj instanceof Undefined) return obj.kind === 'chainable' ? obj : failUndefined(obj);
  const value = item(obj, key);
  if (value !== MISSING) return value;
  if (typeof key === 'string') {
    const found = attribute(env, obj, key);
    if (found !== MISSING) return found;
  }
  return env.undefined(null, objectTypeRepr(obj), key);
}

/** `{% set ns.name = value %}`: only a namespace takes attributes (stored in a Map, so no name reaches a prototype). */
export function setattr(obj: unknown, name: string, value: unknown): void {
  if (!(obj instanceof Namespace)) raise('TemplateRuntimeError', 'cannot assign attribute on non-namespace object');
  obj.attrs.set(name, value);
}

/**
 * Template values as a host function receives them: JSON-like data, `undefined` for Undefined, hosts. Each copy is
 * charged as it is made: a list holding one big list many times is as many copies of it.
 */
function toHost(v: unknown): unknown {
  if (v instanceof Float) return v.value;
  if (v instanceof Undefined) return undefined;
  if (Array.isArray(v)) return hostList(v);
  if (v instanceof PyRange || v instanceof DictView || v instanceof PyIterator) return hostList(toList(v));
  if (v instanceof PyDict || isPlainObject(v)) {
    const entries = v instanceof PyDict ? v.entries.values() : dictItems(v);
    charge(DICT_BYTES);
    const out = Object.create(null) as Record<string, unknown>;
    for (const [k, x] of entries) {
      const name = String(k);
      charge(entryBytes(name));
      Object.defineProperty(out, name, { value: toHost(x), enumerable: true, writable: true });
    }
    return out;
  }
  return v;
}

function hostList(items: readonly unknown[]): unknown[] {
  chargeList(items.length);
  return items.map(toHost);
}

/** `fn(*args, **kwargs)`. */
export function callValue(fn: unknown, args: unknown[], kwargs: Kwargs): unknown {
  if (fn instanceof PyFunction) return fn.call(args, kwargs);
  if (fn instanceof PyObject && fn.call !== undefined) return fn.call(args, kwargs);
  if (fn instanceof Undefined) failUndefined(fn);
  if (typeof fn === 'function') {
    const hostArgs = args.map(toHost);
    if (kwargs.size > 0) hostArgs.push(keywordArguments([...kwargs].map(([k, v]) => [k, toHost(v)] as const)));
    const result: unknown = (fn as (...a: unknown[]) => unknown)(...hostArgs);
    return result === undefined ? null : result;
  }
  raise('TypeError', `'${typeName(fn)}' object is not callable`);
}
