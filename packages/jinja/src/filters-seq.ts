/** Jinja's filters over sequences and mappings (jinja2/filters.py), lazy where Jinja's return generators. */
import { bind, toInt } from './args.js';
import { dictGet, dictItems, hashKey } from './dicts.js';
import type { Environment } from './environment.js';
import { PyError, raise } from './errors.js';
import {
  charge,
  chargeList,
  chargeStr,
  countOccurrences,
  entryBytes,
  ITEM_BYTES,
  joined,
  listBytes,
  OBJECT_BYTES,
  PUSHED_LIST_BYTES,
} from './meter.js';
import { binary } from './operators.js';
import { eq, iterate, order, pyLen, sortCompare, toList, truthy } from './protocol.js';
import { failUndefined, pyStr, typeName } from './python.js';
import { chars } from './pystring.js';
import {
  DictView,
  groupTuple,
  isDict,
  isTuple,
  MISSING,
  PyIterator,
  PyRange,
  tuple,
  Undefined,
  type Kwargs,
} from './values.js';

export type FilterFn = (env: Environment, value: unknown, args: unknown[], kwargs: Kwargs) => unknown;

const lower = (v: unknown) => {
  if (typeof v !== 'string') return v;
  chargeStr(v.length);
  return v.toLowerCase();
};

/** Jinja's _prepare_attribute_parts: `'a.0.b'` → ['a', 0, 'b']. */
function parts(attribute: unknown): unknown[] {
  if (attribute === null || attribute === undefined) return [];
  if (typeof attribute === 'string') {
    chargeList(2 * (countOccurrences(attribute, '.') + 1));
    return attribute.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  }
  return [attribute];
}

/** Jinja's make_attrgetter. */
function attrGetter(
  env: Environment,
  attribute: unknown,
  postprocess: ((v: unknown) => unknown) | null = null,
  dflt: unknown = null,
) {
  const path = parts(attribute);
  return (item: unknown): unknown => {
    let v = item;
    for (const part of path) {
      v = env.getitem(v, part);
      if (dflt !== null && v instanceof Undefined) v = dflt;
    }
    return postprocess ? postprocess(v) : v;
  };
}

/** Jinja's make_multi_attrgetter (`sort(attribute='a,b')`). */
function multiAttrGetter(env: Environment, attribute: unknown, postprocess: ((v: unknown) => unknown) | null) {
  if (typeof attribute === 'string') chargeList(2 * (countOccurrences(attribute, ',') + 1));
  const getters = (typeof attribute === 'string' ? attribute.split(',') : [attribute]).map((a) =>
    attrGetter(env, a, postprocess),
  );
  return (item: unknown): unknown[] => {
    chargeList(getters.length);
    return getters.map((g) => g(item));
  };
}

function generator(name: string, items: () => Generator<unknown>): PyIterator {
  return new PyIterator(items(), 'generator', `<generator object ${name}>`);
}

function sortBy<T>(items: T[], key: (item: T) => unknown, reverse: boolean): T[] {
  // The keyed copy (an object an item) and the sorted one.
  charge(2 * listBytes(items.length) + items.length * OBJECT_BYTES);
  const keyed = items.map((item) => ({ item, key: key(item) }));
  keyed.sort((a, b) => (reverse ? sortCompare(b.key, a.key) : sortCompare(a.key, b.key)));
  return keyed.map(({ item }) => item);
}

/** Python's reversed(): sequences only. */
function reversed(value: unknown): unknown[] {
  if (typeof value === 'string') return chars(value).reverse();
  if (
    Array.isArray(value) ||
    value instanceof PyRange ||
    isDict(value) ||
    value instanceof DictView ||
    value instanceof Undefined
  ) {
    return toList(value).reverse();
  }
  raise('TypeError', `'${typeName(value)}' object is not reversible`);
}

function minMax(env: Environment, value: unknown, args: unknown[], kwargs: Kwargs, name: 'min' | 'max'): unknown {
  const [caseSensitive = false, attribute = null] = bind(name, args, kwargs, ['case_sensitive', 'attribute']);
  const items = toList(value);
  if (items.length === 0) return env.undefined('No aggregated item, sequence was empty.');
  const key = attrGetter(env, attribute, truthy(caseSensitive) ? null : lower);
  let best = items[0];
  let bestKey = key(best);
  for (let i = 1; i < items.length; i++) {
    const item = items[i];
    const k = key(item);
    if (name === 'min' ? order('<', k, bestKey) : order('>', k, bestKey)) [best, bestKey] = [item, k];
  }
  return best;
}

function selectOrReject(
  env: Environment,
  value: unknown,
  args: unknown[],
  kwargs: Kwargs,
  keep: boolean,
  lookupAttr: boolean,
  name: string,
): PyIterator {
  return generator(name, function* () {
    if (!truthy(value)) return;
    let transform = (x: unknown) => x;
    let rest = args;
    if (lookupAttr) {
      if (args.length === 0) raise('FilterArgumentError', 'Missing parameter for attribute name');
      transform = attrGetter(env, args[0]);
      rest = args.slice(1);
    }
    const test =
      rest.length === 0
        ? (x: unknown) => truthy(x)
        : (x: unknown) => env.callTest(String(rest[0]), x, rest.slice(1), kwargs);
    for (const item of iterate(value)) if (test(transform(item)) === keep) yield item;
  });
}

export const SEQUENCE_FILTERS: [string, FilterFn][] = [
  ['length', (_env, value, args, kwargs) => (bind('length', args, kwargs, []), pyLen(value))],
  ['count', (_env, value, args, kwargs) => (bind('count', args, kwargs, []), pyLen(value))],
  ['list', (_env, value, args, kwargs) => (bind('list', args, kwargs, []), toList(value))],
  [
    'first',
    (env, value, args, kwargs) => {
      bind('first', args, kwargs, []);
      const next = iterate(value)[Symbol.iterator]().next();
      return next.done ? env.undefined('No first item, sequence was empty.') : next.value;
    },
  ],
  [
    'last',
    (env, value, args, kwargs) => {
      bind('last', args, kwargs, []);
      // A list's last item needs no reversed copy.
      const items = Array.isArray(value) ? value.slice(-1) : reversed(value);
      return items.length === 0 ? env.undefined('No last item, sequence was empty.') : items[0];
    },
  ],
  [
    'random',
    (env, value, args, kwargs) => {
      bind('random', args, kwargs, []);
      // random.choice: seq[randrange(len(seq))], so a dict is indexed by an int key.
      const n = pyLen(value);
      if (n === 0) return env.undefined('No random item, sequence was empty.');
      const i = Math.floor(Math.random() * n);
      if (Array.isArray(value)) return value[i];
      if (!isDict(value)) return toList(value)[i];
      const item = dictGet(value, i);
      if (item === MISSING) raise('KeyError', String(i));
      return item;
    },
  ],
  [
    'reverse',
    (_env, value, args, kwargs) => {
      bind('reverse', args, kwargs, []);
      if (typeof value === 'string') return joined(chars(value).reverse());
      let items: unknown[] | null = null;
      try {
        items = reversed(value);
      } catch (e) {
        if (!(e instanceof PyError && e.type === 'TypeError')) throw e;
      }
      if (items !== null) {
        const type = isTuple(value) ? 'reversed' : `${typeName(value)}_reverseiterator`;
        return new PyIterator(items[Symbol.iterator](), type, `<${type} object>`);
      }
      try {
        return toList(value).reverse();
      } catch (e) {
        if (e instanceof PyError && e.type === 'TypeError') raise('FilterArgumentError', 'argument must be iterable');
        throw e;
      }
    },
  ],
  [
    'join',
    (env, value, args, kwargs) => {
      const [d = '', attribute = null] = bind('join', args, kwargs, ['d', 'attribute']);
      const get = attribute === null ? (x: unknown) => x : attrGetter(env, attribute);
      const items = toList(value);
      chargeList(items.length);
      return joined(
        items.map((x) => pyStr(get(x))),
        pyStr(d),
      );
    },
  ],
  [
    'sum',
    (env, value, args, kwargs) => {
      const [attribute = null, start = 0] = bind('sum', args, kwargs, ['attribute', 'start']);
      if (typeof start === 'string') raise('TypeError', "sum() can't sum strings [use ''.join(seq) instead]");
      const get = attribute === null ? (x: unknown) => x : attrGetter(env, attribute);
      return toList(value).reduce((acc: unknown, x) => binary('+', acc, get(x)), start);
    },
  ],
  ['min', (env, value, args, kwargs) => minMax(env, value, args, kwargs, 'min')],
  ['max', (env, value, args, kwargs) => minMax(env, value, args, kwargs, 'max')],
  [
    'sort',
    (env, value, args, kwargs) => {
      const [reverse = false, caseSensitive = false, attribute = null] = bind('sort', args, kwargs, [
        'reverse',
        'case_sensitive',
        'attribute',
      ]);
      return sortBy(
        toList(value),
        multiAttrGetter(env, attribute, truthy(caseSensitive) ? null : lower),
        truthy(reverse),
      );
    },
  ],
  [
    'dictsort',
    (_env, value, args, kwargs) => {
      const [caseSensitive = false, by = 'key', reverse = false] = bind('dictsort', args, kwargs, [
        'case_sensitive',
        'by',
        'reverse',
      ]);
      if (by !== 'key' && by !== 'value') raise('FilterArgumentError', 'You can only sort by either "key" or "value"');
      if (value instanceof Undefined) failUndefined(value);
      if (!isDict(value)) raise('TypeError', `'${typeName(value)}' object has no attribute 'items'`);
      const pos = by === 'key' ? 0 : 1;
      const items = dictItems(value).map((pair) => tuple(pair));
      chargeList(items.length);
      return sortBy(items, (item) => (truthy(caseSensitive) ? item[pos] : lower(item[pos])), truthy(reverse));
    },
  ],
  [
    'items',
    (_env, value, args, kwargs) => {
      bind('items', args, kwargs, []);
      return generator('do_items', function* () {
        if (value instanceof Undefined) return;
        if (!isDict(value)) raise('TypeError', 'Can only get item pairs from a mapping.');
        for (const pair of dictItems(value)) yield tuple(pair);
      });
    },
  ],
  [
    'unique',
    (env, value, args, kwargs) => {
      const [caseSensitive = false, attribute = null] = bind('unique', args, kwargs, ['case_sensitive', 'attribute']);
      const key = attrGetter(env, attribute, truthy(caseSensitive) ? null : lower);
      return generator('sync_do_unique', function* () {
        const seen = new Set<string>();
        for (const item of iterate(value)) {
          const k = hashKey(key(item));
          if (!seen.has(k)) {
            charge(entryBytes(k));
            seen.add(k);
            yield item;
          }
        }
      });
    },
  ],
  [
    'groupby',
    (env, value, args, kwargs) => {
      const [attribute, dflt = null, caseSensitive = false] = bind(
        'groupby',
        args,
        kwargs,
        ['attribute', 'default', 'case_sensitive'],
        1,
      );
      const sensitive = truthy(caseSensitive);
      const key = attrGetter(env, attribute, sensitive ? null : lower, dflt);
      const groups: { key: unknown; items: unknown[] }[] = [];
      for (const item of sortBy(toList(value), key, false)) {
        const k = key(item);
        const last = groups[groups.length - 1];
        charge(ITEM_BYTES);
        if (last !== undefined && eq(last.key, k)) {
          if (last.items.length === 1) charge(PUSHED_LIST_BYTES);
          last.items.push(item);
        } else {
          charge(OBJECT_BYTES + listBytes(1));
          groups.push({ key: k, items: [item] });
        }
      }
      chargeList(groups.length);
      const shown = attrGetter(env, attribute, null, dflt);
      return groups.map((g) => groupTuple(sensitive ? g.key : shown(g.items[0]), g.items));
    },
  ],
  [
    'map',
    (env, value, args, kwargs) =>
      generator('sync_do_map', function* () {
        if (!truthy(value)) return;
        let func: (item: unknown) => unknown;
        if (args.length === 0 && kwargs.has('attribute')) {
          const extra = [...kwargs.keys()].find((k) => k !== 'attribute' && k !== 'default');
          if (extra !== undefined) raise('FilterArgumentError', `Unexpected keyword argument '${extra}'`);
          func = attrGetter(env, kwargs.get('attribute'), null, kwargs.get('default') ?? null);
        } else {
          if (args.length === 0) raise('FilterArgumentError', 'map requires a filter argument');
          const [name, ...rest] = args;
          func = (item) => env.callFilter(String(name), item, rest, kwargs);
        }
        for (const item of iterate(value)) yield func(item);
      }),
  ],
  ['select', (env, value, args, kwargs) => selectOrReject(env, value, args, kwargs, true, false, 'select_or_reject')],
  ['reject', (env, value, args, kwargs) => selectOrReject(env, value, args, kwargs, false, false, 'select_or_reject')],
  [
    'selectattr',
    (env, value, args, kwargs) => selectOrReject(env, value, args, kwargs, true, true, 'select_or_reject'),
  ],
  [
    'rejectattr',
    (env, value, args, kwargs) => selectOrReject(env, value, args, kwargs, false, true, 'select_or_reject'),
  ],
  [
    'batch',
    (_env, value, args, kwargs) => {
      const [linecount, fillWith = null] = bind('batch', args, kwargs, ['linecount', 'fill_with'], 1);
      return generator('do_batch', function* () {
        const size = Number(linecount);
        let tmp: unknown[] = [];
        for (const item of iterate(value)) {
          if (tmp.length === size) {
            yield tmp;
            tmp = [];
          }
          if (tmp.length === 0) charge(PUSHED_LIST_BYTES);
          else if (tmp.length >= 16) charge(ITEM_BYTES);
          tmp.push(item);
        }
        if (tmp.length > 0) {
          if (fillWith !== null && tmp.length < size) {
            charge((size - tmp.length) * ITEM_BYTES);
            while (tmp.length < size) tmp.push(fillWith);
          }
          yield tmp;
        }
      });
    },
  ],
  [
    'slice',
    (_env, value, args, kwargs) => {
      const [slices, fillWith = null] = bind('slice', args, kwargs, ['slices', 'fill_with'], 1);
      return generator('sync_do_slice', function* () {
        const seq = toList(value);
        const n = toInt(slices);
        const per = Math.floor(seq.length / n);
        const withExtra = seq.length % n;
        let offset = 0;
        for (let i = 0; i < n; i++) {
          const start = offset + i * per;
          if (i < withExtra) offset += 1;
          chargeList(offset + (i + 1) * per - start + 1);
          const tmp = seq.slice(start, offset + (i + 1) * per);
          if (fillWith !== null && i >= withExtra) tmp.push(fillWith);
          yield tmp;
        }
      });
    },
  ],
];
