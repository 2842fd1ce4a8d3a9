/** Jinja's default globals: range (with the sandbox's size limit), lipsum, dict, namespace, cycler, joiner. */
import { bind, positional, toInt } from './args.js';
import { dictItems, dictSize, newDict } from './dicts.js';
import { raise } from './errors.js';
import { MAX_RANGE } from './limits.js';
import { charge, chargeList, chargeStr, entryBytes, ITEM_BYTES, joined, PAIR_BYTES } from './meter.js';
import { toList } from './protocol.js';
import { pyStr } from './python.js';
import {
  isDict,
  isNumber,
  MISSING,
  Namespace,
  PyFunction,
  PyObject,
  PyRange,
  toNumber,
  type Kwargs,
} from './values.js';

function range(args: unknown[], kwargs: Kwargs): PyRange {
  positional('range', args, kwargs, 1, 3);
  const [a, b, c] = args.map(toInt);
  const r = args.length === 1 ? new PyRange(0, a, 1) : new PyRange(a, b, c ?? 1);
  if (r.step === 0) raise('ValueError', 'range() arg 3 must not be zero');
  if (r.length > MAX_RANGE) {
    raise('OverflowError', `Range too big. The sandbox blocks ranges larger than MAX_RANGE (${MAX_RANGE}).`);
  }
  return r;
}

/** Python's dict(*args, **kwargs) pairs. */
function pairs(fname: string, args: unknown[], kwargs: Kwargs): [unknown, unknown][] {
  const [source] = positional(fname, args, new Map(), 0, 1);
  // dictItems and toList charge their copies; the list of pairs is charged here, pair by pair.
  const out: [unknown, unknown][] = [];
  const push = (k: unknown, v: unknown) => {
    charge(ITEM_BYTES + PAIR_BYTES);
    out.push([k, v]);
  };
  if (source !== undefined) {
    if (isDict(source)) {
      chargeList(dictSize(source));
      for (const pair of dictItems(source)) out.push(pair);
    } else {
      for (const item of toList(source)) {
        const pair = toList(item);
        if (pair.length !== 2)
          raise('ValueError', `dictionary update sequence element has length ${pair.length}; 2 is required`);
        push(pair[0], pair[1]);
      }
    }
  }
  for (const [k, v] of kwargs) push(k, v);
  return out;
}

class Cycler extends PyObject {
  readonly typeName = 'jinja2.utils.Cycler';
  private pos = 0;

  constructor(private readonly items: unknown[]) {
    super();
  }

  attribute(name: string): unknown {
    switch (name) {
      case 'items':
        return this.items;
      case 'pos':
        return this.pos;
      case 'current':
        return this.items[this.pos];
      case 'next':
        return new PyFunction('<bound method Cycler.next>', (args, kwargs) => {
          positional('next', args, kwargs, 0, 0);
          const value = this.items[this.pos];
          this.pos = (this.pos + 1) % this.items.length;
          return value;
        });
      case 'reset':
        return new PyFunction('<bound method Cycler.reset>', (args, kwargs) => {
          positional('reset', args, kwargs, 0, 0);
          this.pos = 0;
          return null;
        });
      default:
        return MISSING;
    }
  }

  repr(): string {
    return '<jinja2.utils.Cycler object>';
  }
}

const LOREM = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna ' +
  'aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute ' +
  'irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non ' +
  'proident sunt culpa qui officia deserunt mollit anim id est laborum'
).split(' ');

const randrange = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));

/** jinja2.utils.generate_lorem_ipsum (random text, so never compared with Jinja's). */
function lipsum(args: unknown[], kwargs: Kwargs): string {
  const [n = 5, html = true, min = 20, max = 100] = bind('generate_lorem_ipsum', args, kwargs, [
    'n',
    'html',
    'min',
    'max',
  ]).map((v) => (isNumber(v) ? toNumber(v) : v));
  const paragraphs: string[] = [];
  for (let i = 0; i < Number(n); i++) {
    const words: string[] = [];
    let [capitalize, lastComma, lastStop, last] = [true, 0, 0, ''];
    for (let idx = 0, count = randrange(Number(min), Number(max)); idx < count; idx++) {
      let word = last;
      while (word === last) word = LOREM[randrange(0, LOREM.length)];
      last = word;
      if (capitalize) [word, capitalize] = [word[0].toUpperCase() + word.slice(1), false];
      if (idx - randrange(3, 8) > lastComma) [lastComma, lastStop, word] = [idx, lastStop + 2, word + ','];
      if (idx - randrange(10, 20) > lastStop) [lastComma, lastStop, word, capitalize] = [idx, idx, word + '.', true];
      chargeStr(word.length);
      charge(ITEM_BYTES);
      words.push(word);
    }
    const p = joined(words, ' ');
    chargeStr(p.length);
    charge(ITEM_BYTES);
    paragraphs.push(p.endsWith(',') ? p.slice(0, -1) + '.' : p.endsWith('.') ? p : p + '.');
  }
  if (!html) return joined(paragraphs, '\n\n');
  return joined(
    paragraphs.map((p) => (chargeStr(p.length + 7), `<p>${p}</p>`)),
    '\n',
  );
}

export function makeGlobals(): Map<string, unknown> {
  return new Map<string, unknown>([
    ['range', new PyFunction('<function safe_range>', range)],
    ['lipsum', new PyFunction('<function generate_lorem_ipsum>', lipsum)],
    ['dict', new PyFunction("<class 'dict'>", (args, kwargs) => newDict(pairs('dict', args, kwargs)))],
    [
      'namespace',
      new PyFunction("<class 'jinja2.utils.Namespace'>", (args, kwargs) => {
        const ns = new Namespace();
        for (const [k, v] of pairs('Namespace', args, kwargs)) {
          const name = pyStr(k);
          charge(entryBytes(name));
          ns.attrs.set(name, v);
        }
        return ns;
      }),
    ],
    [
      'cycler',
      new PyFunction("<class 'jinja2.utils.Cycler'>", (args, kwargs) => {
        positional('Cycler', [], kwargs, 0, 0);
        if (args.length === 0) raise('RuntimeError', 'at least one item has to be provided');
        return new Cycler(args);
      }),
    ],
    [
      'joiner',
      new PyFunction("<class 'jinja2.utils.Joiner'>", (args, kwargs) => {
        const [sep = ', '] = bind('Joiner', args, kwargs, ['sep']);
        let used = false;
        return new PyFunction('<jinja2.utils.Joiner object>', (a, k) => {
          positional('Joiner', a, k, 0, 0);
          if (used) return sep;
          used = true;
          return '';
        });
      }),
    ],
  ]);
}
