/** Jinja's tests (`x is defined`, `n is divisibleby 3`), jinja2/tests.py. */
import { bind } from './args.js';
import { hashKey } from './dicts.js';
import type { Environment } from './environment.js';
import { PyError } from './errors.js';
import { binary } from './operators.js';
import { contains, eq, iterate, order, pyLen } from './protocol.js';
import { pyStr } from './python.js';
import { isAllCase } from './pystring.js';
import { DictView, isDict, isFloat, isInt, isNumber, PyFunction, PyObject, Undefined, type Kwargs } from './values.js';

export type TestFn = (env: Environment, value: unknown, args: unknown[], kwargs: Kwargs) => boolean;

/** A test taking no argument. */
function unary(name: string, test: (value: unknown) => boolean): TestFn {
  return (_env, value, args, kwargs) => {
    bind(name, args, kwargs, []);
    return test(value);
  };
}

/** A test taking one argument. */
function withArg(name: string, param: string, test: (value: unknown, arg: unknown) => boolean): TestFn {
  return (_env, value, args, kwargs) => test(value, bind(name, args, kwargs, [param], 1)[0]);
}

function succeeds(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (e instanceof PyError) return false;
    throw e;
  }
}

const remainder = (value: unknown, n: unknown) => eq(binary('%', value, n), 0);

const comparisons: [string[], (a: unknown, b: unknown) => boolean][] = [
  [['eq', 'equalto', '=='], eq],
  [['ne', '!='], (a, b) => !eq(a, b)],
  [['lt', 'lessthan', '<'], (a, b) => order('<', a, b)],
  [['le', '<='], (a, b) => order('<=', a, b)],
  [['gt', 'greaterthan', '>'], (a, b) => order('>', a, b)],
  [['ge', '>='], (a, b) => order('>=', a, b)],
];

export const TESTS = new Map<string, TestFn>([
  ['defined', unary('defined', (v) => !(v instanceof Undefined))],
  ['undefined', unary('undefined', (v) => v instanceof Undefined)],
  ['none', unary('none', (v) => v === null)],
  ['boolean', unary('boolean', (v) => typeof v === 'boolean')],
  ['false', unary('false', (v) => v === false)],
  ['true', unary('true', (v) => v === true)],
  ['integer', unary('integer', isInt)],
  ['float', unary('float', isFloat)],
  ['number', unary('number', isNumber)],
  ['string', unary('string', (v) => typeof v === 'string')],
  ['mapping', unary('mapping', isDict)],
  [
    'sequence',
    // Python checks len() and __getitem__: a dict view has only the first.
    unary('sequence', (v) => !(v instanceof DictView) && succeeds(() => pyLen(v))),
  ],
  ['iterable', unary('iterable', (v) => succeeds(() => iterate(v)))],
  [
    'callable',
    // Jinja's Undefined defines __call__ (to raise), so Python calls it callable.
    unary(
      'callable',
      (v) =>
        v instanceof PyFunction ||
        v instanceof Undefined ||
        typeof v === 'function' ||
        (v instanceof PyObject && v.call !== undefined),
    ),
  ],
  ['lower', unary('lower', (v) => isAllCase(pyStr(v), 'lower'))],
  ['upper', unary('upper', (v) => isAllCase(pyStr(v), 'upper'))],
  ['escaped', unary('escaped', () => false)],
  ['even', unary('even', (v) => remainder(v, 2))],
  ['odd', unary('odd', (v) => eq(binary('%', v, 2), 1))],
  ['divisibleby', withArg('divisibleby', 'num', remainder)],
  ['sameas', withArg('sameas', 'other', (a, b) => a === b)],
  ['in', withArg('in', 'seq', (a, b) => contains(b, a))],
  ...comparisons.flatMap(([names, f]) => names.map((n): [string, TestFn] => [n, withArg(n, 'other', f)])),
  // `value in environment.filters` (or tests): an unhashable value raises.
  ['filter', (env, value, args, kwargs) => (bind('filter', args, kwargs, []), hashKey(value), env.hasFilter(value))],
  ['test', (env, value, args, kwargs) => (bind('test', args, kwargs, []), hashKey(value), env.hasTest(value))],
]);
