/**
 * The allocation budget: templates that would allocate far beyond a small budget in a few operations are refused with
 * a MemoryError *before* they allocate (the heap never grows by more than the budget), and templates that build real
 * configs render unchanged under the default budget, charged linearly.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  allocationBudget,
  DEFAULT_ALLOCATION_BYTES,
  renderTemplate,
  TemplateError,
  type AllocationMeter,
} from '../src/index.js';

const MiB = 1024 * 1024;
const BUDGET = 64 * MiB;
/** What the engine may allocate uncharged beyond a budget (scopes, argument lists, estimates a little short). */
const SLACK = 16 * MiB;
const MEMORY_ERROR = 'MemoryError: the template would use more memory than a render may use';
const params = { extensions: ['jinja2.ext.do', 'jinja2.ext.loopcontrols'] };

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapUsed = () => getHeapStatistics().used_heap_size;

/**
 * Wraps a meter to record what was charged in all and the live heap's high-water mark, sampled every MiB charged
 * (garbage does not count: a sample past the bound collects it and looks again).
 */
class Watched implements AllocationMeter {
  charged = 0;
  readonly base: number;
  peak: number;
  private sinceSample = 0;

  constructor(
    private readonly inner: AllocationMeter,
    private readonly budget: number,
  ) {
    gc();
    this.base = this.peak = heapUsed();
  }

  charge(bytes: number): void {
    this.charged += bytes;
    this.sinceSample += bytes;
    if (this.sinceSample >= MiB) {
      this.sinceSample = 0;
      this.sample();
    }
    this.inner.charge(bytes);
  }

  sample(): void {
    let used = heapUsed();
    if (used - this.base > this.budget + SLACK) {
      gc();
      used = heapUsed();
    }
    this.peak = Math.max(this.peak, used);
  }
}

function render(template: string, meter: AllocationMeter, context: Record<string, unknown> = {}): string {
  return renderTemplate(template, context, { params, meter });
}

/** Renders a bomb under `budget`: it must fail with the MemoryError, the heap never having grown past the budget. */
function refused(template: string, budget = BUDGET): TemplateError {
  const meter = new Watched(allocationBudget(budget), budget);
  let error: unknown = null;
  try {
    render(template, meter);
  } catch (e) {
    error = e;
  }
  meter.sample();
  expect(error, 'rendered without error').toBeInstanceOf(TemplateError);
  expect((error as TemplateError).message).toBe(MEMORY_ERROR);
  expect(meter.peak - meter.base).toBeLessThan(budget + SLACK);
  return error as TemplateError;
}

const BIG = "{% set big = 'x' * 9999999 %}";
/** A structure of a billion leaves in a few kilobytes: a list of a thousand references to a list of a thousand... */
const DEEP = '{% set a = [0] * 1000 %}{% set b = [a] * 1000 %}{% set c = [b] * 1000 %}';
const DEEP_DICT =
  '{% set a = {} %}{% for i in range(1000) %}{% do a.update({i: i}) %}{% endfor %}' +
  '{% set b = {} %}{% for i in range(1000) %}{% do b.update({i: a}) %}{% endfor %}{% set c = [b] * 1000 %}';

/** Name, template and, for those that take many small steps to pass 64 MiB, a smaller budget (faster to reach). */
const bombs: [string, string, number?][] = [
  ['the two-line bomb', '{% set a = [0]*9999999 %}{% set b=[a]*9999999 %}{{ b|length }}'],
  [
    'the two-line bomb, its first list under the budget',
    '{% set a = [0]*999999 %}{% set b=[a]*9999999 %}{{ b|length }}',
  ],
  [
    'a big string repeated into a list',
    "{% set l = [] %}{% for i in range(100) %}{% do l.append('x' * 9999999) %}{% endfor %}",
  ],
  [
    'a list of big strings built by +',
    "{% set ns = namespace(l=[]) %}{% for i in range(100) %}{% set ns.l = ns.l + ['x' * 9999999] %}{% endfor %}",
  ],
  [
    'map|join nested in a loop that appends',
    "{% set l = [] %}{% for i in range(100000) %}{% do l.append(range(100000)|map('string')|join) %}{% endfor %}",
    16 * MiB,
  ],
  ['a list of references printed', '{% set a = [0] * 1000 %}{{ ([a] * 1000000)|string }}'],
  ['a list of references printed inside a list', '{% set a = [0] * 100000 %}{{ [[a] * 100000] }}'],
  [
    'appending a big string, then joining',
    `${BIG}{% set l = [] %}{% for i in range(100000) %}{% do l.append(big) %}{% endfor %}{{ l|join }}`,
  ],
  [
    'appending a big string, then printing',
    `${BIG}{% set l = [] %}{% for i in range(100000) %}{% do l.append(big) %}{% endfor %}{{ l }}`,
  ],
  [
    'appending a big list, then flattening it',
    '{% set a = [0] * 1000000 %}{% set l = [] %}{% for i in range(100000) %}{% do l.append(a) %}{% endfor %}{{ l|sum(start=[])|length }}',
  ],
  ['replace on a concatenation', `${BIG}{{ (big ~ big ~ big)|replace('x','yy') }}`],
  ['replace with an empty needle', `${BIG}{{ big.replace('', '--') }}`],
  ['split of a big string', "{% set s = 'x ' * 4999999 %}{% for i in range(100) %}{% set w = s.split() %}{% endfor %}"],
  ['split by a separator', "{% set s = ',' * 9999999 %}{{ s.split(',')|length }}"],
  ['splitlines', "{% set s = '\\n' * 9999999 %}{{ s.splitlines()|length }}"],
  ['a string to a list of characters', `${BIG}{{ big|list|length }}`],
  [
    'dict.update in a loop',
    '{% set d = {} %}{% for i in range(100000) %}{% for j in range(100) %}{% do d.update({(i, j): i}) %}{% endfor %}{% endfor %}',
    16 * MiB,
  ],
  [
    'dict(...) copies in a loop',
    '{% set d = {} %}{% for i in range(10000) %}{% do d.update({i: i}) %}{% endfor %}{% set l = [] %}{% for i in range(100000) %}{% do l.append(dict(d)) %}{% endfor %}',
  ],
  [
    'dict(...) of a big dict, dropped each time',
    '{% set d = {} %}{% for i in range(100000) %}{% do d.update({i: i}) %}{% endfor %}{% for i in range(100000) %}{% set e = dict(d, x=1) %}{% endfor %}',
  ],
  [
    'dict keys made of a big string',
    "{% set big = 'x' * 999999 %}{% set d = {} %}{% for i in range(100000) %}{% do d.update({big ~ i: i}) %}{% endfor %}",
  ],
  [
    'setdefault in a loop',
    '{% set d = {} %}{% for i in range(100000) %}{% for j in range(100) %}{% do d.setdefault(i * 100 + j, [j]) %}{% endfor %}{% endfor %}',
    16 * MiB,
  ],
  [
    'a dict literal in a loop',
    '{% set l = [] %}{% for i in range(100000) %}{% for j in range(100) %}{% do l.append({"a": i, "b": j}) %}{% endfor %}{% endfor %}',
    16 * MiB,
  ],
  ['tojson of a shared structure', `${DEEP}{{ c|tojson }}`],
  ['tojson of shared dicts', `${DEEP_DICT}{{ c|tojson }}`],
  ['tojson with a huge indent', '{{ [[1]]|tojson(indent=99999999) }}'],
  ['pprint of a shared structure', `${DEEP}{{ c|pprint }}`],
  ['pprint of shared dicts', `${DEEP_DICT}{{ c|pprint }}`],
  ['string of a shared structure', `${DEEP}{{ c|string }}`],
  ['string of shared dicts', `${DEEP_DICT}{{ c|string }}`],
  ['repr by %r', `${DEEP}{{ '%r' % (c,) }}`],
  ['repr by !r', `${DEEP}{{ '{!r}'.format(c) }}`],
  ['a concatenation of a shared structure', `${DEEP}{{ 'x' ~ c }}`],
  ['a big string in a list printed', `${BIG}{{ [big] * 100 }}`],
  [
    'str.format padding in a loop',
    "{% set l = [] %}{% for i in range(1000) %}{% do l.append('{:>9999999}'.format(1)) %}{% endfor %}",
  ],
  ['% padding in a loop', "{% for i in range(1000) %}{% set x = '%9999999d' % 1 %}{% endfor %}"],
  ['a huge precision', "{{ '%.999999999f' % 1.5 }}"],
  ['a huge precision by format', "{{ '{:.999999999f}'.format(1.5) }}"],
  ['center in a loop', "{% for i in range(1000) %}{% set x = 'a'.center(9999999) %}{% endfor %}"],
  ['zfill in a loop', "{% for i in range(1000) %}{% set x = '1'.zfill(9999999) %}{% endfor %}"],
  ['%s of a big string in a loop', `${BIG}{% for i in range(1000) %}{% set x = '%s!' % big %}{% endfor %}`],
  [
    'format filter of a big string in a loop',
    `${BIG}{% for i in range(1000) %}{% set x = '%s!'|format(big) %}{% endfor %}`,
  ],
  [
    'a macro output captured repeatedly',
    `${BIG}{% macro m() %}<{{ big }}>{% endmacro %}{% set l = [] %}{% for i in range(1000) %}{% do l.append(m()) %}{% endfor %}`,
  ],
  ['a set block captured in a loop', `${BIG}{% for i in range(1000) %}{% set x %}[{{ big }}]{% endset %}{% endfor %}`],
  [
    'a call block in a loop',
    `${BIG}{% macro m() %}{{ caller() }}{{ caller() }}{% endmacro %}{% for i in range(1000) %}{% set x %}{% call m() %}{{ big }}{% endcall %}{% endset %}{% endfor %}`,
  ],
  [
    'batch of a huge range',
    "{% set l = [] %}{% for i in range(1000) %}{% do l.append(range(100000)|batch(1)|list) %}{% endfor %}",
  ],
  ['batch filled', "{{ [1]|batch(999999999, 'x')|list|length }}"],
  [
    'slice of a huge range',
    "{% set l = [] %}{% for i in range(1000) %}{% do l.append(range(100000)|slice(100000)|list) %}{% endfor %}",
  ],
  ['slice into many slices', '{{ range(10)|slice(999999999)|list|length }}'],
  [
    'sort in a loop',
    '{% set r = range(100000)|list %}{% set l = [] %}{% for i in range(1000) %}{% do l.append(r|sort) %}{% endfor %}',
    16 * MiB,
  ],
  [
    'unique, map and select in a loop',
    "{% set l = [] %}{% for i in range(1000) %}{% do l.append(range(100000)|unique|map('abs')|select|list) %}{% endfor %}",
    16 * MiB,
  ],
  [
    'groupby in a loop',
    "{% set r = range(100000)|map('string')|list %}{% set l = [] %}{% for i in range(1000) %}{% do l.append(r|groupby('0')) %}{% endfor %}",
    16 * MiB,
  ],
  [
    'dictsort in a loop',
    '{% set d = {} %}{% for i in range(10000) %}{% do d.update({i: i}) %}{% endfor %}{% set l = [] %}{% for i in range(10000) %}{% do l.append(d|dictsort) %}{% endfor %}',
    16 * MiB,
  ],
  [
    'items of a dict materialised in a loop',
    '{% set d = {} %}{% for i in range(10000) %}{% do d.update({i: i}) %}{% endfor %}{% set l = [] %}{% for i in range(10000) %}{% do l.append(d.items()|list) %}{% endfor %}',
    16 * MiB,
  ],
  [
    'a for loop over a generator, kept',
    "{% set l = [] %}{% for i in range(1000) %}{% for x in range(100000)|map('string') %}{% do l.append(x) %}{% endfor %}{% endfor %}",
    8 * MiB,
  ],
  [
    'list.extend in a loop',
    '{% set r = range(100000)|list %}{% set l = [] %}{% for i in range(1000) %}{% do l.extend(r) %}{% endfor %}',
  ],
  [
    'list.insert in a loop',
    '{% set l = [] %}{% for i in range(100000) %}{% for j in range(100) %}{% do l.insert(999999999, j) %}{% endfor %}{% endfor %}',
    4 * MiB,
  ],
  [
    'list.copy in a loop',
    '{% set r = range(100000)|list %}{% set l = [] %}{% for i in range(1000) %}{% do l.append(r.copy()) %}{% endfor %}',
  ],
  [
    'tuple literals in a loop',
    '{% set l = [] %}{% for i in range(100000) %}{% for j in range(100) %}{% do l.append((i, j)) %}{% endfor %}{% endfor %}',
    16 * MiB,
  ],
  ['str.join of a big list', `${BIG}{% set l = [big] * 1000 %}{{ ''.join(l)|length }}`],
  ['join with a big separator', `${BIG}{{ range(100000)|map('string')|join(big) }}`],
  ['indent by a huge width', "{{ ('a\\n' * 100000)|indent(9999999) }}"],
  ['indent by a big string', `${BIG}{{ ('a\\n' * 100000)|indent(big) }}`],
  ['wordwrap with a big wrapstring', `${BIG}{{ ('ab ' * 100000)|wordwrap(2, wrapstring=big) }}`],
  ['wordwrap of a long word', `${BIG}{{ big|wordwrap(1) }}`],
  ['escape of special characters', "{{ ('<' * 9999999)|escape|length }}"],
  ['urlencode', "{{ ('é' * 9999999)|urlencode|length }}"],
  ['title in a loop', `${BIG}{% for i in range(100) %}{% set x = big|title %}{% endfor %}`],
  ['upper in a loop', `${BIG}{% for i in range(100) %}{% set x = big.upper() %}{% endfor %}`],
  ['swapcase', `${BIG}{{ big.swapcase()|length }}`],
  ['reverse of a string in a loop', `${BIG}{% for i in range(100) %}{% set x = big|reverse %}{% endfor %}`],
  ['a slice with a step in a loop', `${BIG}{% for i in range(100) %}{% set x = big[::2] %}{% endfor %}`],
  ['striptags of many tags', "{% for i in range(100) %}{% set x = ('<b>x</b> ' * 1000000)|striptags %}{% endfor %}"],
  ['lipsum', '{{ lipsum(1000000)|length }}'],
  ['lipsum of long paragraphs', '{{ lipsum(10, min=9999999, max=99999999)|length }}'],
  [
    'a tuple key nested deep',
    "{% set ns = namespace(t=('x' * 1000,)) %}{% for i in range(40) %}{% set ns.t = (ns.t, ns.t) %}{% endfor %}{{ {ns.t: 1} }}",
  ],
  [
    'arguments spread from a big list',
    '{% macro m() %}{{ varargs|length }}{% endmacro %}{% set r = range(100000)|list %}{% set l = [] %}{% for i in range(1000) %}{% do l.append(m(*r)) %}{% endfor %}',
  ],
  [
    'namespace(...) of a big dict in a loop',
    '{% set d = {} %}{% for i in range(10000) %}{% do d.update({i: i}) %}{% endfor %}{% set l = [] %}{% for i in range(10000) %}{% do l.append(namespace(d)) %}{% endfor %}',
  ],
  [
    'a recursive loop output',
    `${BIG}{% for x in [[1, [2, [3]]]] * 1000 recursive %}{{ big }}{% if x is iterable %}{{ loop(x) }}{% endif %}{% endfor %}`,
  ],
];

describe('the allocation budget refuses', () => {
  for (const [name, template, budget] of bombs) {
    it(name, () => {
      refused(template, budget);
    });
  }

  it('with the statement line, past a default filter and a test', () => {
    const e = refused(`line 1\n{% set a = [0] * 1000 %}\n{{ ([a] * 1000000)|string|default('x') }}`);
    expect(e.line).toBe(3);
    refused("{% set a = [0] * 1000 %}{% if ([a] * 1000000)|string is defined %}x{% endif %}");
    refused("{% set a = [0] * 1000 %}{{ ([a] * 1000000) is sequence }}{{ (([a] * 100000)|pprint) is string }}");
  });

  it('inside filters and tests that catch errors (int and float return their default, iterable is false)', () => {
    refused("{% for i in range(100000) %}{% set x = ('9' * 1000)|int(0) %}{% endfor %}");
    refused("{% for i in range(100000) %}{% set x = ('9' * 1000)|float(0) %}{% endfor %}");
    refused(
      '{% set d = {} %}{% for i in range(100000) %}{% do d.update({i: i}) %}{% endfor %}' +
        '{% for i in range(1000) %}{% if d.values() is iterable %}{% endif %}{% endfor %}',
    );
  });

  it('with whatever the given meter throws', () => {
    const refuse: AllocationMeter = {
      charge(bytes) {
        if (bytes > 1000) throw new Error('too much for this render');
      },
    };
    let error: unknown = null;
    try {
      renderTemplate("\n{{ 'x' * 10000 }}", {}, { meter: refuse });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TemplateError);
    expect(error).toMatchObject({ message: 'too much for this render', line: 2 });
  });

  it('cumulatively: the default budget is per render', () => {
    const template = "{% set x = 'x' * 9999999 %}{{ x|length }}";
    // 20 MB charged each: a shared meter refuses the fourth render, fresh ones never do.
    const meter = allocationBudget(70 * MiB);
    for (let i = 0; i < 3; i++) expect(renderTemplate(template, {}, { meter })).toBe('9999999');
    expect(() => renderTemplate(template, {}, { meter })).toThrow(MEMORY_ERROR);
    for (let i = 0; i < 10; i++) expect(renderTemplate(template, {})).toBe('9999999');
  });
});

describe('legitimate templates render unchanged under the default budget', () => {
  function measured(template: string, context: Record<string, unknown> = {}): { output: string; charged: number } {
    const meter = new Watched(allocationBudget(DEFAULT_ALLOCATION_BYTES), DEFAULT_ALLOCATION_BYTES);
    return { output: render(template, meter, context), charged: meter.charged };
  }

  it('a 10,000-line config built with ~ in a loop, charged linearly', () => {
    const { output, charged } = measured(
      '{% set ns = namespace(config="") %}{% for i in range(10000) %}' +
        '{% set ns.config = ns.config ~ "interface Ethernet" ~ i ~ "\\n description uplink " ~ i ~ "\\n" %}' +
        '{% endfor %}{{ ns.config }}',
    );
    const lines = Array.from({ length: 10000 }, (_, i) => `interface Ethernet${i}\n description uplink ${i}\n`);
    expect(output).toBe(lines.join(''));
    // The config is about 500 KB; copying it on every line would charge gigabytes.
    expect(charged).toBeLessThan(16 * MiB);
  });

  it('a config built line by line with a set block and a macro', () => {
    const { output, charged } = measured(
      '{% macro line(i) %}interface Ethernet{{ i }}\n  mtu 9000\n{% endmacro %}' +
        '{% set config %}{% for i in range(10000) %}{{ line(i) }}{% endfor %}{% endset %}{{ config|length }}',
    );
    const config = Array.from({ length: 10000 }, (_, i) => `interface Ethernet${i}\n  mtu 9000\n`).join('');
    expect(output).toBe(String(config.length));
    expect(charged).toBeLessThan(32 * MiB);
  });

  it('a word of 20,000 characters wrapped at 1 (each line a slice of the word, not a copy of what is left)', () => {
    const { output, charged } = measured("{{ ('x' * 20000)|wordwrap(1)|length }}");
    expect(output).toBe('39999');
    expect(charged).toBeLessThan(8 * MiB);
  });

  it('a 50,000-item list built with append', () => {
    const { output } = measured(
      '{% set l = [] %}{% for i in range(50000) %}{% do l.append({"name": "eth" ~ i, "vlan": i % 4094}) %}{% endfor %}' +
        '{{ l|length }} {{ l[-1].name }} {{ l|map(attribute="vlan")|sum }}',
    );
    let sum = 0;
    for (let i = 0; i < 50000; i++) sum += i % 4094;
    expect(output).toBe(`50000 eth49999 ${sum}`);
  });

  it('nested loops over 1,000 × 100', () => {
    const { output } = measured(
      '{% set ns = namespace(n=0) %}{% for i in range(1000) %}{% for j in range(100) %}' +
        '{% if (i + j) % 7 == 0 %}{% set ns.n = ns.n + 1 %}{% endif %}{% endfor %}{% endfor %}{{ ns.n }}',
    );
    let n = 0;
    for (let i = 0; i < 1000; i++) for (let j = 0; j < 100; j++) if ((i + j) % 7 === 0) n++;
    expect(output).toBe(String(n));
  });

  it('a device config over context data: filters, dicts, tojson, pprint', () => {
    const interfaces = Array.from({ length: 2000 }, (_, i) => ({
      name: `xe-0/0/${i}`,
      enabled: i % 3 !== 0,
      vlans: [i % 100, (i + 1) % 100],
      description: `to <rack ${i}> & "core"`,
    }));
    const template =
      '{% for i in interfaces|selectattr("enabled")|sort(attribute="name") %}' +
      '{{ i.name }} {{ i.description|e }} {{ i.vlans|join(",") }}\n{% endfor %}' +
      '{{ interfaces|groupby("enabled")|map(attribute="grouper")|list }}' +
      '{{ (interfaces[:50]|tojson)|length }} {{ (interfaces[:20]|pprint)|length }}' +
      '{{ interfaces|map(attribute="description")|map("upper")|map("replace", "CORE", "edge")|list|length }}';
    const { output } = measured(template, { interfaces });
    expect(output).toContain('xe-0/0/1 to &lt;rack 1&gt; &amp; &#34;core&#34; 1,2\n');
    expect(output).toContain('[False, True]');
  });
});
