/**
 * The Python methods of str, list, tuple, dict and range a template may call (`name.upper()`, `d.items()`). Each type
 * has a Map of its methods: a name not in the Map is no method, whatever JavaScript's prototypes hold.
 * SandboxedEnvironment allows the mutating list and dict methods (only ImmutableSandboxedEnvironment refuses them).
 */
import { bind, positional, toInt } from './args.js';
import { dictClear, dictDelete, dictGet, dictItems, dictKeys, dictSet, newDict, ownValue } from './dicts.js';
import type { Environment } from './environment.js';
import { raise } from './errors.js';
import { strFormat } from './format.js';
import { MAX_REPEAT } from './limits.js';
import {
  charge,
  chargeList,
  chargeStr,
  countOccurrences,
  DICT_BYTES,
  entryBytes,
  ITEM_BYTES,
  joined,
  listBytes,
  PAIR_BYTES,
  sliceBytes,
  strBytes,
} from './meter.js';
import { contains, eq, sortCompare, toList } from './protocol.js';
import { pyRepr, pyStr, typeName } from './python.js';
import {
  chars,
  hasSurrogates,
  isAllCase,
  isCased,
  isSpace,
  splitLines,
  splitWhitespace,
  strLength,
  strip,
  substring,
} from './pystring.js';
import {
  DictView,
  isDict,
  isList,
  isTuple,
  MISSING,
  PyDict,
  PyFunction,
  PyRange,
  toNumber,
  tuple,
  type Dict,
  type Kwargs,
} from './values.js';

type Method<T> = (env: Environment, self: T, args: unknown[], kwargs: Kwargs) => unknown;

/** Case mappings make a new string about as long (ß → SS is the exception two bytes a character covers). */
function lower(s: string): string {
  chargeStr(s.length);
  return s.toLowerCase();
}

function upper(s: string): string {
  chargeStr(s.length);
  return s.toUpperCase();
}

function str(v: unknown, fname: string): string {
  if (typeof v !== 'string') raise('TypeError', `${fname}() argument must be str, not ${typeName(v)}`);
  return v;
}

/** Python's clamping of optional start/end arguments (str.find, list.index, ...). */
function span(length: number, start: unknown, end: unknown): [number, number] {
  const clamp = (v: unknown, dflt: number) => {
    if (v === undefined || v === null) return dflt;
    const n = toInt(v);
    return n < 0 ? Math.max(0, n + length) : Math.min(n, length);
  };
  return [clamp(start, 0), clamp(end, length)];
}

function findIn(s: string, args: unknown[], kwargs: Kwargs, fname: string, reverse: boolean): number {
  const [sub, start, end] = positional(fname, args, kwargs, 1, 3);
  const needleText = str(sub, fname);
  if (!hasSurrogates(s) && !hasSurrogates(needleText)) {
    // Units are characters: search in place, with the bounds (and their quirks) of the loop below.
    const [from, to] = span(s.length, start, end);
    const last = from + Math.max(0, to - from) - needleText.length;
    if (last < from) return -1;
    const i = reverse ? s.lastIndexOf(needleText, last) : s.indexOf(needleText, from);
    return i >= from && i <= last ? i : -1;
  }
  const cs = chars(s);
  const [from, to] = span(cs.length, start, end);
  const needle = chars(needleText);
  chargeList(to - from);
  const hay = cs.slice(from, to);
  for (let k = 0; k + needle.length <= hay.length; k++) {
    const i = reverse ? hay.length - needle.length - k : k;
    if (needle.every((c, j) => hay[i + j] === c)) return i + from;
  }
  return -1;
}

function justify(fname: string, s: string, args: unknown[], kwargs: Kwargs, side: 'left' | 'right' | 'center'): string {
  const [width, fill = ' '] = positional(fname, args, kwargs, 1, 2);
  const w = toInt(width);
  if (w > MAX_REPEAT) raise('OverflowError', `width larger than ${MAX_REPEAT}`);
  if (typeof fill !== 'string' || strLength(fill) !== 1)
    raise('TypeError', 'The fill character must be exactly one character long');
  const marg = w - strLength(s);
  if (marg <= 0) return s;
  chargeStr(w);
  if (side === 'left') return s + fill.repeat(marg);
  if (side === 'right') return fill.repeat(marg) + s;
  const left = Math.floor(marg / 2) + (marg & w & 1);
  return fill.repeat(left) + s + fill.repeat(marg - left);
}

function affix(fname: string, s: string, args: unknown[], kwargs: Kwargs, atEnd: boolean): boolean {
  const [prefix, start, end] = positional(fname, args, kwargs, 1, 3);
  const [from, to] = span(strLength(s), start, end);
  const part = substring(s, from, to);
  const options = isTuple(prefix) ? prefix : [prefix];
  return options.some((p) => {
    const t = str(p, fname);
    return atEnd ? part.endsWith(t) : part.startsWith(t);
  });
}

function split(fname: string, s: string, args: unknown[], kwargs: Kwargs, fromRight: boolean): string[] {
  const [sep = null, maxsplit = -1] = bind(fname, args, kwargs, ['sep', 'maxsplit']);
  const max = toInt(maxsplit);
  if (sep === null) return splitWhitespace(s, max, fromRight);
  const by = str(sep, fname);
  if (by === '') raise('ValueError', 'empty separator');
  // Cut where the separator is, a part at a time (charged as it is cut); at most `max` cuts, from either end.
  const cuts = max < 0 ? Infinity : max;
  const parts: string[] = [];
  const part = (from: number, to: number) => {
    charge(ITEM_BYTES + sliceBytes(to - from));
    parts.push(s.slice(from, to));
  };
  if (!fromRight) {
    let pos = 0;
    for (let i = s.indexOf(by); i >= 0 && parts.length < cuts; i = s.indexOf(by, pos)) {
      part(pos, i);
      pos = i + by.length;
    }
    part(pos, s.length);
    return parts;
  }
  // From the right, as Python: occurrences found right to left ('aaa'.rsplit('aa') is ['a', '']).
  let end = s.length;
  const ends: number[] = [];
  for (let i = s.lastIndexOf(by, end - by.length); i >= 0 && ends.length < cuts; ) {
    charge(ITEM_BYTES);
    ends.push(i);
    end = i;
    i = end - by.length < 0 ? -1 : s.lastIndexOf(by, end - by.length);
  }
  part(0, end);
  for (let k = ends.length - 1; k >= 0; k--) part(ends[k] + by.length, k > 0 ? ends[k - 1] : s.length);
  return parts;
}

function pyTitle(s: string): string {
  let previousCased = false;
  const cs = chars(s);
  chargeList(cs.length);
  return joined(
    cs.map((c) => {
      const out = isCased(c) ? (previousCased ? c.toLowerCase() : c.toUpperCase()) : c;
      previousCased = isCased(c);
      return out;
    }),
  );
}

function replace(s: string, args: unknown[], kwargs: Kwargs): string {
  const [old, replacement, count = -1] = positional('replace', args, kwargs, 2, 3);
  const from = str(old, 'replace');
  const to = str(replacement, 'replace');
  let n = toInt(count);
  if (n < 0) n = Infinity;
  if (from === '') {
    // `to` goes before each of the first n characters, and at the end if n reaches it.
    const cs = chars(s);
    const k = Math.min(n, cs.length + 1);
    if (k === 0) return s;
    chargeList(cs.length);
    chargeStr(s.length + k * to.length);
    const head = cs.slice(0, k).join(to);
    if (k <= cs.length) return to + head + cs.slice(k).join('');
    return cs.length === 0 ? to : to + head + to;
  }
  // The first n occurrences end at `end`; sized before the split of that head and the result are made.
  let found = 0;
  let end = 0;
  for (let i = s.indexOf(from); i >= 0 && found < n; i = s.indexOf(from, end)) {
    found++;
    end = i + from.length;
  }
  if (found === 0) return s;
  charge((found + 1) * (ITEM_BYTES + strBytes(12)) + strBytes(s.length + found * (to.length - from.length)));
  if (end === s.length) return s.split(from).join(to);
  return s.slice(0, end).split(from).join(to) + s.slice(end);
}

const STR = new Map<string, Method<string>>([
  [
    'capitalize',
    (_e, s, a, k) => {
      positional('capitalize', a, k, 0, 0);
      const [first = '', ...rest] = chars(s);
      chargeList(rest.length);
      const tail = joined(rest);
      chargeStr(tail.length);
      return first.toUpperCase() + tail.toLowerCase();
    },
  ],
  ['casefold', (_e, s, a, k) => (positional('casefold', a, k, 0, 0), lower(s))],
  ['center', (_e, s, a, k) => justify('center', s, a, k, 'center')],
  [
    'count',
    (_e, s, a, k) => {
      const [sub, start, end] = positional('count', a, k, 1, 3);
      const [from, to] = span(strLength(s), start, end);
      const part = substring(s, from, to);
      const needle = str(sub, 'count');
      return needle === '' ? strLength(part) + 1 : countOccurrences(part, needle);
    },
  ],
  ['endswith', (_e, s, a, k) => affix('endswith', s, a, k, true)],
  ['find', (_e, s, a, k) => findIn(s, a, k, 'find', false)],
  ['format', (e, s, a, k) => strFormat(s, a, k, e.fieldAccess)],
  [
    'format_map',
    (e, s, a, k) => {
      const [mapping] = positional('format_map', a, k, 1, 1);
      if (!isDict(mapping)) raise('TypeError', `'${typeName(mapping)}' object is not a mapping`);
      const fields: Kwargs = new Map();
      for (const [key, v] of dictItems(mapping)) {
        const name = pyStr(key);
        charge(entryBytes(name));
        fields.set(name, v);
      }
      return strFormat(s, [], fields, e.fieldAccess);
    },
  ],
  [
    'index',
    (_e, s, a, k) => {
      const i = findIn(s, a, k, 'index', false);
      if (i < 0) raise('ValueError', 'substring not found');
      return i;
    },
  ],
  ['isalnum', (_e, s) => s !== '' && /^[\p{L}\p{N}]+$/u.test(s)],
  ['isalpha', (_e, s) => s !== '' && /^\p{L}+$/u.test(s)],
  ['isascii', (_e, s) => /^[\x00-\x7f]*$/.test(s)],
  ['isdecimal', (_e, s) => /^\p{Nd}+$/u.test(s)],
  ['isdigit', (_e, s) => /^[\p{Nd}\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089]+$/u.test(s)],
  ['isidentifier', (_e, s) => /^[\p{ID_Start}_][\p{ID_Continue}]*$/u.test(s)],
  ['islower', (_e, s) => isAllCase(s, 'lower')],
  ['isnumeric', (_e, s) => /^\p{N}+$/u.test(s)],
  ['isspace', (_e, s) => isSpace(s)],
  ['istitle', (_e, s) => (s !== pyTitle(s) ? false : chars(s).some(isCased))],
  ['isupper', (_e, s) => isAllCase(s, 'upper')],
  [
    'join',
    (_e, s, a, k) => {
      const [items] = positional('join', a, k, 1, 1);
      const parts = toList(items);
      parts.forEach((x, i) => {
        if (typeof x !== 'string')
          raise('TypeError', `sequence item ${i}: expected str instance, ${typeName(x)} found`);
      });
      return joined(parts as string[], s);
    },
  ],
  ['ljust', (_e, s, a, k) => justify('ljust', s, a, k, 'left')],
  ['lower', (_e, s, a, k) => (positional('lower', a, k, 0, 0), lower(s))],
  ['lstrip', (_e, s, a, k) => strip(s, stripChars('lstrip', a, k), 'left')],
  ['partition', (_e, s, a, k) => partition(s, a, k, false)],
  [
    'removeprefix',
    (_e, s, a, k) => {
      const p = str(positional('removeprefix', a, k, 1, 1)[0], 'removeprefix');
      if (p === '' || !s.startsWith(p)) return s;
      charge(sliceBytes(s.length - p.length));
      return s.slice(p.length);
    },
  ],
  [
    'removesuffix',
    (_e, s, a, k) => {
      const p = str(positional('removesuffix', a, k, 1, 1)[0], 'removesuffix');
      if (p === '' || !s.endsWith(p)) return s;
      charge(sliceBytes(s.length - p.length));
      return s.slice(0, -p.length);
    },
  ],
  ['replace', (_e, s, a, k) => replace(s, a, k)],
  ['rfind', (_e, s, a, k) => findIn(s, a, k, 'rfind', true)],
  [
    'rindex',
    (_e, s, a, k) => {
      const i = findIn(s, a, k, 'rindex', true);
      if (i < 0) raise('ValueError', 'substring not found');
      return i;
    },
  ],
  ['rjust', (_e, s, a, k) => justify('rjust', s, a, k, 'right')],
  ['rpartition', (_e, s, a, k) => partition(s, a, k, true)],
  ['rsplit', (_e, s, a, k) => split('rsplit', s, a, k, true)],
  ['rstrip', (_e, s, a, k) => strip(s, stripChars('rstrip', a, k), 'right')],
  ['split', (_e, s, a, k) => split('split', s, a, k, false)],
  [
    'splitlines',
    (_e, s, a, k) => {
      const [keepends = false] = bind('splitlines', a, k, ['keepends']);
      return splitLines(s, Boolean(keepends));
    },
  ],
  ['startswith', (_e, s, a, k) => affix('startswith', s, a, k, false)],
  ['strip', (_e, s, a, k) => strip(s, stripChars('strip', a, k), 'both')],
  [
    'swapcase',
    (_e, s) => {
      const cs = chars(s);
      chargeList(cs.length);
      return joined(cs.map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())));
    },
  ],
  ['title', (_e, s, a, k) => (positional('title', a, k, 0, 0), pyTitle(s))],
  ['upper', (_e, s, a, k) => (positional('upper', a, k, 0, 0), upper(s))],
  [
    'zfill',
    (_e, s, a, k) => {
      const w = toInt(positional('zfill', a, k, 1, 1)[0]);
      if (w > MAX_REPEAT) raise('OverflowError', `width larger than ${MAX_REPEAT}`);
      const signed = s.startsWith('-') || s.startsWith('+');
      const fill = Math.max(0, w - strLength(s));
      if (fill > 0) chargeStr(s.length + fill);
      return signed ? s[0] + '0'.repeat(fill) + s.slice(1) : '0'.repeat(fill) + s;
    },
  ],
]);

function stripChars(fname: string, args: unknown[], kwargs: Kwargs): string | null {
  const [c = null] = positional(fname, args, kwargs, 0, 1);
  return c === null ? null : str(c, fname);
}

function partition(s: string, args: unknown[], kwargs: Kwargs, fromRight: boolean): readonly unknown[] {
  const sep = str(positional('partition', args, kwargs, 1, 1)[0], 'partition');
  if (sep === '') raise('ValueError', 'empty separator');
  const i = fromRight ? s.lastIndexOf(sep) : s.indexOf(sep);
  chargeList(3);
  if (i < 0) return tuple(fromRight ? ['', '', s] : [s, '', '']);
  charge(sliceBytes(i) + sliceBytes(s.length - i - sep.length));
  return tuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
}

function indexOf(fname: string, seq: readonly unknown[], args: unknown[], kwargs: Kwargs): number {
  const [value, start, end] = positional(fname, args, kwargs, 1, 3);
  const [from, to] = span(seq.length, start, end);
  for (let i = from; i < to; i++) if (eq(seq[i], value)) return i;
  raise('ValueError', `${pyRepr(value)} is not in ${fname === 'index' ? 'list' : 'tuple'}`);
}

const SEQUENCE = new Map<string, Method<readonly unknown[]>>([
  [
    'count',
    (_e, l, a, k) => {
      const [v] = positional('count', a, k, 1, 1);
      let n = 0;
      for (const x of l) if (eq(x, v)) n++;
      return n;
    },
  ],
  ['index', (_e, l, a, k) => indexOf('index', l, a, k)],
]);

const LIST = new Map<string, Method<unknown[]>>([
  ...SEQUENCE,
  [
    'append',
    (_e, l, a, k) => {
      const [v] = positional('append', a, k, 1, 1);
      charge(ITEM_BYTES);
      l.push(v);
      return null;
    },
  ],
  ['clear', (_e, l, a, k) => (positional('clear', a, k, 0, 0), (l.length = 0), null)],
  ['copy', (_e, l, a, k) => (positional('copy', a, k, 0, 0), chargeList(l.length), l.slice())],
  [
    'extend',
    (_e, l, a, k) => {
      // toList charges the copy; a loop, not push(...): a long list would overflow the stack as arguments.
      const items = toList(positional('extend', a, k, 1, 1)[0]);
      charge(items.length * ITEM_BYTES);
      for (const x of items) l.push(x);
      return null;
    },
  ],
  [
    'insert',
    (_e, l, a, k) => {
      const [i, v] = positional('insert', a, k, 2, 2);
      charge(ITEM_BYTES);
      const n = toInt(i);
      l.splice(n < 0 ? Math.max(0, l.length + n) : Math.min(n, l.length), 0, v);
      return null;
    },
  ],
  [
    'pop',
    (_e, l, a, k) => {
      const [i = -1] = positional('pop', a, k, 0, 1);
      if (l.length === 0) raise('IndexError', 'pop from empty list');
      let n = toInt(i);
      if (n < 0) n += l.length;
      if (n < 0 || n >= l.length) raise('IndexError', 'pop index out of range');
      return l.splice(n, 1)[0];
    },
  ],
  [
    'remove',
    (_e, l, a, k) => {
      const [v] = positional('remove', a, k, 1, 1);
      const i = l.findIndex((x) => eq(x, v));
      if (i < 0) raise('ValueError', 'list.remove(x): x not in list');
      l.splice(i, 1);
      return null;
    },
  ],
  ['reverse', (_e, l, a, k) => (positional('reverse', a, k, 0, 0), l.reverse(), null)],
  [
    'sort',
    (e, l, a, k) => {
      if (a.length > 0) raise('TypeError', 'sort() takes no positional arguments');
      const [key = null, reverse = false] = bind('sort', [], k, ['key', 'reverse']);
      const keyOf = (x: unknown) => (key === null ? x : e.call(key, [x], new Map()));
      charge(listBytes(l.length) + l.length * PAIR_BYTES);
      const keyed = l.map((x) => [keyOf(x), x] as const);
      keyed.sort((x, y) => (reverse ? sortCompare(y[0], x[0]) : sortCompare(x[0], y[0])));
      // Written back in place, not with splice(...): a long list would overflow the stack as arguments.
      l.length = keyed.length;
      keyed.forEach(([, x], i) => (l[i] = x));
      return null;
    },
  ],
]);

function dictUpdate(d: Dict, args: unknown[], kwargs: Kwargs): null {
  const [other] = positional('update', args, new Map(), 0, 1);
  if (other !== undefined) {
    let pairs: unknown[][];
    if (isDict(other)) pairs = dictItems(other);
    else {
      const items = toList(other);
      chargeList(items.length);
      pairs = items.map((p) => toList(p));
    }
    for (const pair of pairs) {
      if (pair.length !== 2)
        raise('ValueError', `dictionary update sequence element has length ${pair.length}; 2 is required`);
      dictSet(d, pair[0], pair[1]);
    }
  }
  for (const [key, v] of kwargs) dictSet(d, key, v);
  return null;
}

const DICT = new Map<string, Method<Dict>>([
  ['clear', (_e, d, a, k) => (positional('clear', a, k, 0, 0), dictClear(d), null)],
  [
    'copy',
    (_e, d, a, k) => (positional('copy', a, k, 0, 0), d instanceof PyDict ? newDict(dictItems(d)) : copyObject(d)),
  ],
  [
    'get',
    (_e, d, a, k) => {
      const [key, dflt = null] = positional('get', a, k, 1, 2);
      const v = dictGet(d, key);
      return v === MISSING ? dflt : v;
    },
  ],
  ['items', (_e, d, a, k) => (positional('items', a, k, 0, 0), new DictView('items', d))],
  ['keys', (_e, d, a, k) => (positional('keys', a, k, 0, 0), new DictView('keys', d))],
  [
    'pop',
    (_e, d, a, k) => {
      const [key, dflt] = positional('pop', a, k, 1, 2);
      const v = dictGet(d, key);
      if (v === MISSING) {
        if (dflt === undefined) raise('KeyError', pyRepr(key));
        return dflt;
      }
      dictDelete(d, key);
      return v;
    },
  ],
  [
    'popitem',
    (_e, d, a, k) => {
      positional('popitem', a, k, 0, 0);
      const last = dictLast(d);
      if (last === undefined) raise('KeyError', "'popitem(): dictionary is empty'");
      dictDelete(d, last[0]);
      chargeList(2);
      return tuple(last);
    },
  ],
  [
    'setdefault',
    (_e, d, a, k) => {
      const [key, dflt = null] = positional('setdefault', a, k, 1, 2);
      const v = dictGet(d, key);
      if (v !== MISSING) return v;
      dictSet(d, key, dflt);
      return dflt;
    },
  ],
  ['update', (_e, d, a, k) => dictUpdate(d, a, k)],
  ['values', (_e, d, a, k) => (positional('values', a, k, 0, 0), new DictView('values', d))],
]);

/** The last (key, value) pair, without copying the dict. */
function dictLast(d: Dict): [unknown, unknown] | undefined {
  if (d instanceof PyDict) {
    let last: readonly [unknown, unknown] | undefined;
    for (const entry of d.entries.values()) last = entry;
    return last && [last[0], last[1]];
  }
  const keys = dictKeys(d);
  const key = keys.at(-1);
  return key === undefined ? undefined : [key, ownValue(d, key as string)];
}

function copyObject(d: Dict): Dict {
  charge(DICT_BYTES);
  const out = Object.create(null) as Dict;
  for (const key of dictKeys(d)) dictSet(out, key, ownValue(d, key as string));
  return out;
}

const RANGE = new Map<string, Method<PyRange>>([
  ['count', (_e, r, a, k) => (contains(r, positional('count', a, k, 1, 1)[0]) ? 1 : 0)],
  [
    'index',
    (_e, r, a, k) => {
      const [v] = positional('index', a, k, 1, 1);
      if (!contains(r, v)) raise('ValueError', `${pyRepr(v)} is not in range`);
      return (toNumber(v as number) - r.start) / r.step;
    },
  ],
]);

function bound<T>(env: Environment, self: T, name: string, owner: string, method: Method<T>): PyFunction {
  return new PyFunction(`<built-in method ${name} of ${owner} object>`, (args, kwargs) =>
    method(env, self, args, kwargs),
  );
}

/** The method `name` of `obj`, bound; MISSING when `obj`'s Python type has no such method. */
export function methodOf(env: Environment, obj: unknown, name: string): PyFunction | typeof MISSING {
  let m: Method<never> | undefined;
  if (typeof obj === 'string') m = STR.get(name);
  else if (isList(obj)) m = LIST.get(name);
  else if (isTuple(obj)) m = SEQUENCE.get(name);
  else if (isDict(obj)) m = DICT.get(name);
  else if (obj instanceof PyRange) m = RANGE.get(name);
  return m === undefined ? MISSING : bound(env, obj as never, name, typeName(obj), m);
}
