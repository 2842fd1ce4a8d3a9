/**
 * How Python values are represented. JSON data maps directly (None = null, bool, int/float = number, str, list =
 * array, dict = plain object); the rest are the classes below. Every value a template can hold is one of these or a
 * TemplateHost, which is what lets the sandbox reason about every attribute lookup.
 */
import { isTemplateHost } from './host.js';
import { charge, concatenated, ITEM_BYTES, joined, listBytes, TUPLE_MARK_BYTES } from './meter.js';

export type UndefinedKind = 'default' | 'strict' | 'chainable' | 'debug';

/** Jinja's Undefined (or StrictUndefined, ...): a missing variable, attribute or item. */
export class Undefined {
  constructor(
    readonly kind: UndefinedKind,
    readonly hint: string | null = null,
    /** Python's description of the object the attribute or item is missing from (`dict object`); null for a name. */
    readonly owner: string | null = null,
    readonly name: unknown = null,
    /** Raised as Jinja's SecurityError rather than UndefinedError when used. */
    readonly unsafe = false,
  ) {}
}

/** A float whose value is integral (`2.0`): JavaScript numbers can't tell it from the int. Other floats are numbers. */
export class Float {
  constructor(readonly value: number) {}
}

export function makeFloat(n: number): number | Float {
  return Number.isInteger(n) ? new Float(n) : n;
}

export function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

export function isFloat(v: unknown): v is number | Float {
  return v instanceof Float || (typeof v === 'number' && !Number.isInteger(v));
}

/** Python's numbers.Number: bool, int and float. */
export function isNumber(v: unknown): v is number | Float | boolean {
  return typeof v === 'number' || typeof v === 'boolean' || v instanceof Float;
}

export function toNumber(v: number | Float | boolean): number {
  return v instanceof Float ? v.value : Number(v);
}

const TUPLES = new WeakSet<object>();
const GROUPS = new WeakSet<object>();

export type Tuple = readonly unknown[];

/** Makes `items` (a new array, charged by its maker) a tuple. */
export function tuple(items: unknown[]): Tuple {
  charge(TUPLE_MARK_BYTES);
  TUPLES.add(items);
  return Object.freeze(items);
}

/** groupby's `(grouper, list)` named tuple. */
export function groupTuple(grouper: unknown, list: unknown[]): Tuple {
  charge(listBytes(2) + TUPLE_MARK_BYTES);
  const t = tuple([grouper, list]);
  GROUPS.add(t);
  return t;
}

export function isTuple(v: unknown): v is Tuple {
  return Array.isArray(v) && TUPLES.has(v);
}

export function isGroupTuple(v: unknown): v is Tuple {
  return Array.isArray(v) && GROUPS.has(v);
}

export function isList(v: unknown): v is unknown[] {
  return Array.isArray(v) && !TUPLES.has(v);
}

export type PlainObject = { [key: string]: unknown };

/** A dict from JSON data: its keys are strings. */
export function isPlainObject(v: unknown): v is PlainObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && !isTemplateHost(v);
}

/** A dict built by the template: any hashable keys, insertion order. Entries are keyed by `hashKey`. */
export class PyDict {
  readonly entries = new Map<string, [key: unknown, value: unknown]>();
}

export type Dict = PlainObject | PyDict;

export function isDict(v: unknown): v is Dict {
  return v instanceof PyDict || isPlainObject(v);
}

export type Kwargs = Map<string, unknown>;

/** Anything callable from a template besides host functions: globals, bound methods, macros. */
export class PyFunction {
  constructor(
    readonly repr: string,
    readonly call: (args: unknown[], kwargs: Kwargs) => unknown,
  ) {}
}

/** What `PyObject.attribute` answers for an attribute the object lacks. */
export const MISSING = Symbol('missing');

/** A Python object with a fixed set of attributes (namespace, loop, cycler, module). */
export abstract class PyObject {
  abstract readonly typeName: string;
  abstract attribute(name: string): unknown;
  /** Python's repr(), given repr() for the values it holds. */
  abstract repr(repr: (value: unknown) => string): string;

  /** Python's `obj(...)`, for the objects that are callable. */
  call?(args: unknown[], kwargs: Kwargs): unknown;

  /** Python's str(); repr() unless the object says otherwise. */
  str(repr: (value: unknown) => string): string {
    return this.repr(repr);
  }
}

export class Namespace extends PyObject {
  readonly typeName = 'jinja2.utils.Namespace';
  readonly attrs = new Map<string, unknown>();

  attribute(name: string): unknown {
    return this.attrs.has(name) ? this.attrs.get(name) : MISSING;
  }

  repr(repr: (value: unknown) => string): string {
    const items: string[] = [];
    for (const [k, v] of this.attrs) {
      charge(ITEM_BYTES);
      items.push(concatenated([repr(k), ': ', repr(v)]));
    }
    return concatenated(['<Namespace {', joined(items, ', '), '}>']);
  }
}

/** Python's `range`: lazy, so `range(100000)` costs nothing until iterated. */
export class PyRange {
  readonly length: number;

  constructor(
    readonly start: number,
    readonly stop: number,
    readonly step: number,
  ) {
    const span = step > 0 ? stop - start : start - stop;
    this.length = span <= 0 ? 0 : Math.ceil(span / Math.abs(step));
  }

  at(i: number): number {
    return this.start + i * this.step;
  }

  *[Symbol.iterator](): Iterator<number> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }
}

/** `dict.keys()`, `values()`, `items()`: live views of the dict. */
export class DictView {
  constructor(
    readonly kind: 'keys' | 'values' | 'items',
    readonly dict: Dict,
  ) {}
}

/** A one-shot Python iterator (generator): what map, select, unique, reverse... return. */
export class PyIterator {
  constructor(
    readonly iterator: Iterator<unknown>,
    readonly typeName: string,
    /** What Python prints, less the address. */
    readonly repr: string,
  ) {}
}
