/**
 * The sandbox: no template reaches a JavaScript constructor, prototype, `process`, `require`, globalThis, the file
 * system or the network. Every escape below carries a payload that, if it ever ran as JavaScript, would set a canary
 * on globalThis; each must render to an error or to harmless text, and leave the canary and Object.prototype alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HOST, renderTemplate, TemplateError, type TemplateHost } from '../src/index.js';

const CANARY = '__patchbayCanary';
const RUN = `"globalThis.${CANARY} = true; return process"`;
const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

function attempt(
  template: string,
  context: Record<string, unknown> = {},
  load?: (name: string) => string | undefined,
): string {
  try {
    return renderTemplate(template, context, { load, params: { extensions: ['jinja2.ext.do'] } });
  } catch (e) {
    expect(e).toBeInstanceOf(TemplateError);
    return `error: ${(e as Error).message}`;
  }
}

/** Text that would betray a JavaScript object or function reaching the output. */
const LEAK = /native code|\[object |function\s*\w*\s*\(|=>|\bprocess\b|\[Function|class /i;

afterEach(() => {
  expect(Reflect.get(globalThis, CANARY)).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
  expect(Reflect.get({}, 'polluted')).toBeUndefined();
  expect(Reflect.get([], 'polluted')).toBeUndefined();
});

const host: TemplateHost = {
  [HOST]: (key: string) => ({ name: 'dev1', count: () => 3 })[key as 'name' | 'count'],
  toString: () => 'dev1',
};

const escapes: [string, string][] = [
  ['range constructor', `{{ range.constructor(${RUN})() }}`],
  ['cycler constructor', `{{ cycler.constructor("globalThis.${CANARY} = true; return this")() }}`],
  ['joiner constructor constructor', `{{ joiner.constructor.constructor(${RUN})() }}`],
  ['string constructor constructor', `{{ "".constructor.constructor(${RUN})() }}`],
  ['list constructor', '{{ [].constructor }}'],
  ['dict __proto__', '{{ {}.__proto__ }}'],
  ['context __proto__ constructor', `{{ x.__proto__.constructor(${RUN})() }}`],
  ['namespace prototype', '{{ namespace.prototype }}'],
  ['lipsum apply', `{{ lipsum.apply(none, [${RUN}]) }}`],
  ['attr filter constructor', `{{ (range|attr("constructor"))(${RUN})() }}`],
  ['set constructor', `{% set f = range.constructor %}{{ f(${RUN})() }}`],
  ['toString call', `{{ ''.toString.call(${RUN}) }}`],
  ['lookupGetter', "{{ ''.__lookupGetter__('length') }}{{ x.__lookupGetter__ }}"],
  ['valueOf and toString', '{{ x.valueOf() }}{{ x.toString() }}{{ [].toString }}'],
  ['caller constructor', `{% macro m() %}{{ caller.constructor(${RUN})() }}{% endmacro %}{% call m() %}{% endcall %}`],
  ['loop constructor', `{% for i in [1] %}{{ loop.constructor(${RUN})() }}{% endfor %}`],
  ['this', '{{ this }}{{ this.constructor }}'],
  [
    'template internals',
    '{{ self.constructor }}{{ runtime }}{{ env }}{{ context }}{{ frame }}{{ cb }}{{ lineno }}{{ colno }}{{ output }}{{ require }}{{ process }}{{ globalThis }}',
  ],
  [
    'namespace constructor attribute',
    '{% set ns = namespace() %}{% set ns.constructor = 1 %}{{ ns.constructor }}{{ ns }}',
  ],
  [
    'map attribute constructor',
    "{{ [x]|map(attribute='constructor')|list }}{{ [x]|map(attribute='constructor.constructor')|list }}",
  ],
  ['selectattr constructor', "{{ [x]|selectattr('constructor')|list }}{{ [x]|rejectattr('__proto__')|list }}"],
  ['sort by __proto__', "{{ [x, x]|sort(attribute='__proto__') }}{{ [x]|sort(attribute='constructor.name') }}"],
  ['groupby constructor', "{{ [x, x]|groupby('constructor')|list }}{{ [x]|unique(attribute='constructor')|list }}"],
  ['format field constructor', `{{ '{0.constructor.constructor}'.format('') }}{{ '{0.__class__}'.format(x) }}`],
  ['dunder chain', "{{ ''.__class__.__mro__[1].__subclasses__() }}"],
  ['item lookup of prototype names', "{{ x['constructor'] }}{{ x['__proto__'] }}{{ x['hasOwnProperty']('a') }}"],
  ['method of a method', '{{ "a".upper.constructor }}{{ "a".upper.call }}{{ "a".upper.bind }}'],
  [
    'host prototype',
    `{{ host.constructor }}{{ host._secret }}{{ host.__proto__ }}{{ host.count.constructor(${RUN})() }}`,
  ],
  ['function properties', '{{ range.name }}{{ range.length }}{{ range.caller }}{{ range.arguments }}'],
];

describe('sandbox escapes', () => {
  for (const [name, template] of escapes) {
    it(name, () => {
      const out = attempt(template, { x: { a: 1 }, host });
      expect(out).not.toMatch(LEAK);
    });
  }

  it('template-internal names are ordinary undefined variables', () => {
    expect(attempt('[{{ runtime }}{{ env }}{{ context }}{{ frame }}{{ cb }}{{ lineno }}{{ colno }}{{ output }}]')).toBe(
      '[]',
    );
    expect(attempt('{{ self }}')).toBe('<TemplateReference None>');
  });

  it('dictsort, tojson and printing never run code on hostile data', () => {
    const hostile = JSON.parse(
      '{"toString": "x", "valueOf": "y", "toJSON": "z", "__proto__": {"polluted": 1}, "constructor": {"prototype": 1}}',
    ) as object;
    const get = {
      get a() {
        throw new Error('getter ran');
      },
    };
    expect(attempt('{{ d|dictsort }}|{{ d|tojson }}|{{ d }}|{{ d|pprint }}|{{ d|list }}', { d: hostile })).toBe(
      `[('__proto__', {'polluted': 1}), ('constructor', {'prototype': 1}), ('toJSON', 'z'), ('toString', 'x'), ('valueOf', 'y')]|` +
        '{"__proto__": {"polluted": 1}, "constructor": {"prototype": 1}, "toJSON": "z", "toString": "x", "valueOf": "y"}|' +
        `{'toString': 'x', 'valueOf': 'y', 'toJSON': 'z', '__proto__': {'polluted': 1}, 'constructor': {'prototype': 1}}|` +
        `{'__proto__': {'polluted': 1},\n 'constructor': {'prototype': 1},\n 'toJSON': 'z',\n 'toString': 'x',\n 'valueOf': 'y'}|` +
        `['toString', 'valueOf', 'toJSON', '__proto__', 'constructor']`,
    );
    expect(attempt('{{ g.a }}|{{ g|list }}', { g: get })).toBe("|['a']");
  });

  it('prototype pollution through namespaces and dicts', () => {
    const d = JSON.parse('{"a": 1}') as Record<string, unknown>;
    attempt(
      "{% set ns = namespace(__proto__={'polluted': 1}) %}{% set ns.__proto__ = {'polluted': 1} %}" +
        "{% set n2 = namespace({'__proto__': {'polluted': 1}}) %}{% set e = dict(__proto__={'polluted': 1}) %}" +
        "{% set l = {'__proto__': {'polluted': 1}} %}{% do d.update({'__proto__': {'polluted': 1}}) %}" +
        "{% do d.setdefault('constructor', {'prototype': {'polluted': 1}}) %}{% do d.update(__proto__={'polluted': 1}) %}",
      { d },
    );
    expect(Object.getPrototypeOf(d)).toBe(Object.prototype);
    expect(Object.keys(d)).toEqual(['a', '__proto__', 'constructor']);
    expect(attempt("{% set ns = namespace(__proto__=1) %}{{ ns.__proto__ }}|{{ ns['__proto__'] }}")).toBe('|');
  });

  it('only load decides what include and import reach', () => {
    const asked: string[] = [];
    const load = (name: string) => {
      asked.push(name);
      return undefined;
    };
    expect(attempt('{% include "../../etc/passwd" %}', {}, load)).toBe('error: ../../etc/passwd');
    expect(attempt('{% import "/etc/passwd" as p %}', {}, load)).toBe('error: /etc/passwd');
    expect(attempt('{% extends "file:///etc/hosts" %}', {}, load)).toBe('error: file:///etc/hosts');
    expect(attempt('{% include "https://example.com/x" ignore missing %}ok', {}, load)).toBe('ok');
    expect(asked).toEqual(['../../etc/passwd', '/etc/passwd', 'file:///etc/hosts', 'https://example.com/x']);
    expect(attempt('{% include "x" %}')).toBe('error: x');
  });

  it('resource limits', () => {
    expect(attempt('{{ range(100001)|length }}')).toMatch(/MAX_RANGE/);
    expect(attempt("{{ 'x' * 100000000 }}")).toMatch(/^error:/);
    expect(attempt("{{ '{:>100000000}'.format(1) }}")).toMatch(/^error:/);
    expect(attempt('{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}')).toBe('error: maximum recursion depth exceeded');
    expect(attempt('{% include "a" %}', {}, () => '{% include "a" %}')).toBe('error: maximum recursion depth exceeded');
    expect(() => renderTemplate('{% for i in range(1000) %}0123456789{% endfor %}', {}, { maxOutput: 5000 })).toThrow(
      'Output exceeds 5000 characters',
    );
  });
});
