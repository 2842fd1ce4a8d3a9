/** Jinja's built-in filters (jinja2/filters.py, 3.1): the string and number ones here, the rest in filters-seq.ts. */
import { bind, toInt } from './args.js';
import { roundFloat } from './decimal.js';
import { newDict } from './dicts.js';
import type { Environment } from './environment.js';
import { PyError, raise } from './errors.js';
import { SEQUENCE_FILTERS, type FilterFn } from './filters-seq.js';
import { toJson } from './json.js';
import { chargeStr, countMatches } from './meter.js';
import { methodOf } from './methods.js';
import { pyFloat, pyInt } from './numbers.js';
import { binary } from './operators.js';
import { pformat } from './pprint.js';
import { pyLen, truthy } from './protocol.js';
import { failUndefined, pyStr, typeName } from './python.js';
import { strip } from './pystring.js';
import {
  escapeHtml,
  filesizeformat,
  indent,
  striptags,
  title,
  truncate,
  urlencode,
  wordwrap,
  xmlattr,
} from './text.js';
import { isDict, isFloat, isNumber, makeFloat, MISSING, toNumber, tuple, Undefined } from './values.js';

export type { FilterFn };

/** A filter of the value's str() (Jinja's soft_str) and the named parameters. */
function onStr(name: string, params: string[], f: (s: string, args: unknown[]) => unknown): FilterFn {
  return (_env, value, args, kwargs) => f(pyStr(value), bind(name, args, kwargs, params));
}

function catching<T>(types: PyError['type'][], f: () => T, fallback: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof PyError && types.includes(e.type)) return fallback();
    throw e;
  }
}

/** A filter that is a str method of the value's str(). */
function strMethod(env: Environment, s: string, name: string, args: unknown[]): unknown {
  const m = methodOf(env, s, name);
  if (m === MISSING) throw new Error(`str has no method ${name}`);
  return m.call(args, new Map());
}

function round(value: unknown, precision: unknown, method: unknown): unknown {
  if (method !== 'common' && method !== 'ceil' && method !== 'floor')
    raise('FilterArgumentError', 'method must be common, ceil or floor');
  if (value instanceof Undefined || !isNumber(value))
    raise('TypeError', `type ${typeName(value)} doesn't define __round__ method`);
  const digits = toInt(precision);
  const x = toNumber(value);
  if (method !== 'common') {
    const scale = 10 ** digits;
    return makeFloat((method === 'ceil' ? Math.ceil(x * scale) : Math.floor(x * scale)) / scale);
  }
  if (isFloat(value)) return makeFloat(roundFloat(x, digits));
  return digits >= 0 ? x : roundFloat(x, digits);
}

const STRING_FILTERS: [string, FilterFn][] = [
  [
    'abs',
    (_env, value, args, kwargs) => {
      bind('abs', args, kwargs, []);
      if (!isNumber(value)) raise('TypeError', `bad operand type for abs(): '${typeName(value)}'`);
      return isFloat(value) ? makeFloat(Math.abs(toNumber(value))) : Math.abs(toNumber(value));
    },
  ],
  [
    'attr',
    (env, value, args, kwargs) => {
      const [name] = bind('attr', args, kwargs, ['name'], 1);
      return env.attribute(value, pyStr(name));
    },
  ],
  [
    'capitalize',
    (env, value, args, kwargs) => (
      bind('capitalize', args, kwargs, []), strMethod(env, pyStr(value), 'capitalize', [])
    ),
  ],
  [
    'center',
    (env, value, args, kwargs) => {
      const [width = 80] = bind('center', args, kwargs, ['width']);
      return strMethod(env, pyStr(value), 'center', [width]);
    },
  ],
  [
    'default',
    (_env, value, args, kwargs) => {
      const [dflt = '', boolean = false] = bind('default', args, kwargs, ['default_value', 'boolean']);
      return value instanceof Undefined || (truthy(boolean) && !truthy(value)) ? dflt : value;
    },
  ],
  ['escape', onStr('escape', [], escapeHtml)],
  ['forceescape', onStr('forceescape', [], escapeHtml)],
  [
    'filesizeformat',
    (_env, value, args, kwargs) => {
      const [binary = false] = bind('filesizeformat', args, kwargs, ['binary']);
      return filesizeformat(pyFloat(value), truthy(binary));
    },
  ],
  [
    'float',
    (_env, value, args, kwargs) => {
      const [dflt = makeFloat(0)] = bind('float', args, kwargs, ['default']);
      return catching(
        ['TypeError', 'ValueError'],
        () => makeFloat(pyFloat(value)),
        () => dflt,
      );
    },
  ],
  [
    'format',
    (_env, value, args, kwargs) => {
      if (args.length > 0 && kwargs.size > 0)
        raise('FilterArgumentError', "can't handle positional and keyword arguments at the same time");
      return binary('%', pyStr(value), kwargs.size > 0 ? newDict(kwargs) : tuple(args));
    },
  ],
  [
    'indent',
    (_env, value, args, kwargs) => {
      const [width = 4, first = false, blank = false] = bind('indent', args, kwargs, ['width', 'first', 'blank']);
      if (typeof value !== 'string') binary('+', value, '\n');
      let indention = width as string;
      if (typeof width !== 'string') {
        const w = Math.max(0, toInt(width));
        chargeStr(w);
        indention = ' '.repeat(w);
      }
      return indent(value as string, indention, truthy(first), truthy(blank));
    },
  ],
  [
    'int',
    (_env, value, args, kwargs) => {
      const [dflt = 0, base = 10] = bind('int', args, kwargs, ['default', 'base']);
      return catching(
        ['TypeError', 'ValueError'],
        () => (typeof value === 'string' ? pyInt(value, toNumber(base as number)) : pyInt(value)),
        () =>
          catching(
            ['TypeError', 'ValueError', 'OverflowError'],
            () => pyInt(pyFloat(value)),
            () => dflt,
          ),
      );
    },
  ],
  ['lower', onStr('lower', [], (s) => (chargeStr(s.length), s.toLowerCase()))],
  ['pprint', (_env, value, args, kwargs) => (bind('pprint', args, kwargs, []), pformat(value))],
  [
    'replace',
    (env, value, args, kwargs) => {
      const [old, replacement, count = null] = bind('replace', args, kwargs, ['old', 'new', 'count'], 2);
      return strMethod(env, pyStr(value), 'replace', [pyStr(old), pyStr(replacement), count ?? -1]);
    },
  ],
  [
    'round',
    (_env, value, args, kwargs) => {
      const [precision = 0, method = 'common'] = bind('round', args, kwargs, ['precision', 'method']);
      return round(value, precision, method);
    },
  ],
  ['safe', onStr('safe', [], (s) => s)],
  ['string', onStr('string', [], (s) => s)],
  ['striptags', onStr('striptags', [], striptags)],
  ['title', onStr('title', [], title)],
  [
    'tojson',
    (_env, value, args, kwargs) => {
      const [indentBy = null] = bind('tojson', args, kwargs, ['indent']);
      return toJson(value, indentBy);
    },
  ],
  ['trim', onStr('trim', ['chars'], (s, [c = null]) => strip(s, c === null ? null : pyStr(c), 'both'))],
  [
    'truncate',
    (_env, value, args, kwargs) => {
      const [length = 255, killwords = false, end = '...', leeway = 5] = bind('truncate', args, kwargs, [
        'length',
        'killwords',
        'end',
        'leeway',
      ]);
      const [n, l] = [toInt(length), leeway === null ? 5 : toInt(leeway)];
      if (typeof value === 'string') return truncate(value, n, truthy(killwords), pyStr(end), l);
      // Python takes len() of any value, then slices and rsplits only a long one, which works for str alone.
      if (pyLen(value) <= n + l) return value;
      raise('TypeError', `'${typeName(value)}' object has no attribute 'rsplit'`);
    },
  ],
  ['upper', onStr('upper', [], (s) => (chargeStr(s.length), s.toUpperCase()))],
  ['urlencode', (_env, value, args, kwargs) => (bind('urlencode', args, kwargs, []), urlencode(value))],
  ['wordcount', onStr('wordcount', [], (s) => countMatches(/[\p{L}\p{N}_]+/gu, s))],
  [
    'wordwrap',
    (env, value, args, kwargs) => {
      const [width = 79, breakLong = true, wrapstring = null, breakOnHyphens = true] = bind('wordwrap', args, kwargs, [
        'width',
        'break_long_words',
        'wrapstring',
        'break_on_hyphens',
      ]);
      if (value instanceof Undefined) failUndefined(value);
      if (typeof value !== 'string') raise('TypeError', `'${typeName(value)}' object has no attribute 'splitlines'`);
      const sep = wrapstring === null ? env.settings.newlineSequence : pyStr(wrapstring);
      return wordwrap(value, toNumber(width as number), truthy(breakLong), sep, truthy(breakOnHyphens));
    },
  ],
  [
    'xmlattr',
    (_env, value, args, kwargs) => {
      const [autospace = true] = bind('xmlattr', args, kwargs, ['autospace']);
      if (value instanceof Undefined) failUndefined(value);
      if (!isDict(value)) raise('TypeError', `'${typeName(value)}' object has no attribute 'items'`);
      return xmlattr(value, truthy(autospace));
    },
  ],
];

const ALL = new Map<string, FilterFn>([...STRING_FILTERS, ...SEQUENCE_FILTERS]);
ALL.set('d', ALL.get('default') as FilterFn);
ALL.set('e', ALL.get('escape') as FilterFn);

export const FILTERS: ReadonlyMap<string, FilterFn> = ALL;
