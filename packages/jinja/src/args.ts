/** Binding call arguments to a Python signature, for the filters, tests, globals and methods written in TypeScript. */
import { raise } from './errors.js';
import { typeName } from './python.js';
import type { Kwargs } from './values.js';

/**
 * The arguments in the order of `names`; a parameter not passed is `undefined` (no template value is: Jinja's
 * Undefined is a class). The first `required` parameters must be passed.
 */
export function bind(
  fname: string,
  args: readonly unknown[],
  kwargs: Kwargs,
  names: readonly string[],
  required = 0,
): unknown[] {
  if (args.length > names.length) {
    raise(
      'TypeError',
      `${fname}() takes at most ${names.length} argument${names.length === 1 ? '' : 's'} (${args.length} given)`,
    );
  }
  const out: unknown[] = [...args];
  out.length = names.length;
  for (const [key, value] of kwargs) {
    const i = names.indexOf(key);
    if (i < 0) raise('TypeError', `${fname}() got an unexpected keyword argument '${key}'`);
    if (i < args.length) raise('TypeError', `${fname}() got multiple values for argument '${key}'`);
    out[i] = value;
  }
  for (let i = 0; i < required; i++) {
    if (out[i] === undefined) raise('TypeError', `${fname}() missing required argument '${names[i]}'`);
  }
  return out;
}

/** For callables that take no keyword arguments (most of Python's str and list methods). */
export function positional(
  fname: string,
  args: readonly unknown[],
  kwargs: Kwargs,
  min: number,
  max: number,
): unknown[] {
  if (kwargs.size > 0) raise('TypeError', `${fname}() takes no keyword arguments`);
  if (args.length < min || args.length > max) {
    const expected = min === max ? `exactly ${min}` : args.length < min ? `at least ${min}` : `at most ${max}`;
    raise(
      'TypeError',
      `${fname}() takes ${expected} argument${(args.length < min ? min : max) === 1 ? '' : 's'} (${args.length} given)`,
    );
  }
  return [...args];
}

/** An argument Python requires to be an int (a bool is one). */
export function toInt(v: unknown): number {
  if (typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v))) return Number(v);
  raise('TypeError', `'${typeName(v)}' object cannot be interpreted as an integer`);
}
