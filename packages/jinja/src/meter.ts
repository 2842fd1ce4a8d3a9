/**
 * The allocation budget of a render. Every place the engine builds a value whose size depends on template input charges
 * an estimate of its bytes here *before* building it (repetition, join, padding, copies...), or element by element as
 * it builds (repr of nested values, splits, materialised iterators), so a template that would take the worker's heap is
 * refused with a MemoryError first. The meter is cumulative: garbage is not given back, which is what bounds a loop
 * that allocates a little on every pass.
 *
 * The meter in force is dynamically scoped to a render (`metered`): the values and operators it charges from (pyStr,
 * binary, the filters...) are plain functions with no render to hand. Rendering is synchronous, so one variable, saved
 * and restored, is exact.
 */
import { MemoryLimitError } from './errors.js';

/** Told before the engine allocates a value; throws to refuse it. */
export interface AllocationMeter {
  charge(bytes: number): void;
}

/**
 * What a render may allocate in all when the caller gives no meter. The estimates below are upper bounds (two bytes a
 * character even for one-byte strings) and garbage is never credited back, so this is above the heap a render really
 * holds: 512 MiB lets a template build and rebuild configs of tens of megabytes, and stays well under Node's default
 * heap (2 GiB and more on 64-bit), so a render nobody limits otherwise cannot take the process down.
 */
export const DEFAULT_ALLOCATION_BYTES = 512 * 1024 * 1024;

class Budget implements AllocationMeter {
  private used = 0;

  constructor(private readonly limit: number) {}

  charge(bytes: number): void {
    this.used += bytes;
    // Negated so that a NaN charge refuses rather than disabling the budget.
    if (!(this.used <= this.limit)) throw new MemoryLimitError();
  }
}

/** A meter that refuses once the bytes charged in one render exceed `limitBytes` in all. */
export function allocationBudget(limitBytes: number): AllocationMeter {
  return new Budget(limitBytes);
}

let active: AllocationMeter | null = null;

/** Runs `f` (a render) with `meter` charged for what the engine allocates. */
export function metered<T>(meter: AllocationMeter, f: () => T): T {
  const previous = active;
  active = meter;
  try {
    return f();
  } finally {
    active = previous;
  }
}

/** Charges the render in progress (nothing outside one). */
export function charge(bytes: number): void {
  if (active !== null) active.charge(bytes);
}

// Estimates, measured on V8 (Node 20) and rounded up.
/** A slot of a list, tuple, Set or array: one pointer. */
export const ITEM_BYTES = 8;
/** A new list, tuple or dict object, before its items (an array's object and backing store headers). */
export const OBJECT_BYTES = 64;
/** A tuple's mark (an entry of a WeakSet). */
export const TUPLE_MARK_BYTES = 32;
/** A new dict, empty: its object and its Map's first hash table (about 220 measured). */
export const DICT_BYTES = 224;
/** A new dict entry: a Map slot, its [key, value] pair and its hash key string (about 125 measured). */
export const ENTRY_BYTES = 128;
/** A new entry keyed by `key`: a string key is kept flat (hashing flattens a rope), so its characters count too. */
export function entryBytes(key: unknown): number {
  return typeof key === 'string' ? ENTRY_BYTES + 2 * key.length : ENTRY_BYTES;
}
/** A [key, value] pair array (what dict items are made of). */
export const PAIR_BYTES = 72;
/** A string's header; a rope (cons) or sliced string is this twice, whatever its length. */
export const STRING_BYTES = 16;
/** What a global regular expression replacement keeps per match before it builds its result. */
export const MATCH_BYTES = 32;

/** A new string of `length` UTF-16 units: two bytes each (V8 stores one-byte strings in one: telling would scan). */
export function strBytes(length: number): number {
  return length > 0 ? STRING_BYTES + 2 * length : STRING_BYTES;
}

/** A substring of `length` units: V8 shares the characters of one of 13 or more (a sliced string). */
export function sliceBytes(length: number): number {
  return length < 13 ? strBytes(length) : 2 * STRING_BYTES;
}

/** An array given its first items by push: V8 makes room for 16 more at once. */
export const PUSHED_LIST_BYTES = OBJECT_BYTES + 17 * ITEM_BYTES;

/** A new array of `n` items. */
export function listBytes(n: number): number {
  return n > 0 ? OBJECT_BYTES + ITEM_BYTES * n : OBJECT_BYTES;
}

export function chargeStr(length: number): void {
  charge(strBytes(length));
}

export function chargeList(n: number): void {
  charge(listBytes(n));
}

/**
 * Joining `parts` with `sep`: the result's characters, charged before the copy is made.
 * Returns the join, so that call sites read `joined(parts, sep)` where they read `parts.join(sep)`.
 */
export function joined(parts: readonly string[], sep = ''): string {
  if (parts.length === 0) return '';
  let length = sep.length * (parts.length - 1);
  for (const p of parts) length += p.length;
  chargeStr(length);
  return parts.join(sep);
}

/**
 * `a + b + ...` of strings: V8 makes a rope (a cons string) that shares its operands, so only the characters that were
 * not already in the longest operand are new. Charging those keeps `{% set s = s ~ line %}` linear, and still charges
 * at least a rope's length once it is flattened (every rope is built from pieces that were charged when made).
 */
export function concatenated(parts: readonly string[]): string {
  let total = 0;
  let longest = 0;
  for (const p of parts) {
    total += p.length;
    if (p.length > longest) longest = p.length;
  }
  charge(2 * STRING_BYTES * (parts.length - 1) + 2 * (total - longest));
  let out = parts[0] ?? '';
  for (let i = 1; i < parts.length; i++) out += parts[i];
  return out;
}

/** The matches of a global regular expression in `s`, counted without keeping them. */
export function countMatches(re: RegExp, s: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(s) !== null) n++;
  re.lastIndex = 0;
  return n;
}

/** Non-overlapping occurrences of a non-empty `sub` in `s`, counted without allocating. */
export function countOccurrences(s: string, sub: string, limit = Infinity): number {
  let n = 0;
  for (let i = s.indexOf(sub); i >= 0 && n < limit; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

/**
 * `s.replace(re, f)` for a global `re` whose replacements are cheap to compute twice: a first pass sizes the result
 * (V8 keeps every match, then builds the result), charged before the replacement runs.
 */
export function replaceCharged(s: string, re: RegExp, f: (match: string) => string): string {
  re.lastIndex = 0;
  let matches = 0;
  let length = s.length;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    matches++;
    length += f(m[0]).length - m[0].length;
  }
  re.lastIndex = 0;
  if (matches === 0) return s;
  charge(matches * MATCH_BYTES + strBytes(length));
  return s.replace(re, f);
}
