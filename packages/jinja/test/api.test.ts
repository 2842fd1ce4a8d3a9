/** renderTemplate's contract beyond Jinja parity: errors, parameters, limits and TemplateHost objects. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HOST, KNOWN_DIFFERENCES, renderTemplate, splitArguments, TemplateError, type TemplateHost } from '../src/index.js';

function failure(
  template: string,
  options: Parameters<typeof renderTemplate>[2] = {},
  context: Record<string, unknown> = {},
): TemplateError {
  try {
    renderTemplate(template, context, options);
  } catch (e) {
    expect(e).toBeInstanceOf(TemplateError);
    return e as TemplateError;
  }
  throw new Error(`rendered without error: ${template}`);
}

/** A host backed by a record; functions in it are callable from templates. */
function host(name: string, attrs: Record<string, unknown>, items?: unknown[]): TemplateHost {
  const h: TemplateHost = {
    [HOST]: (key) => (Object.hasOwn(attrs, key) ? attrs[key] : undefined),
    toString: () => name,
    repr: () => `<Device: ${name}>`,
  };
  if (items !== undefined) {
    h[Symbol.iterator] = () => items[Symbol.iterator]();
    h.length = () => items.length;
  }
  return h;
}

describe('errors', () => {
  it('carry the template line and a message without nunjucks noise', () => {
    const e = failure('a\nb\n{{ 1 / 0 }}');
    expect(e.message).toBe('division by zero');
    expect(e.line).toBe(3);
    expect(failure('line\n{% for x in y %}\n{{ x }}').line).toBe(3);
    expect(failure('{% if x %}\n\n{% endfor %}').message).toMatch(/endfor/);
    expect(failure('\n{{ x|nope }}').message).toBe("No filter named 'nope'.");
    expect(failure('\n{{ x|nope }}').line).toBe(2);
    expect(failure('{% macro m() %}\n{{ missing.x }}\n{% endmacro %}\n{{ m() }}').line).toBe(2);
    expect(failure("{{ 'a'.nope() }}").message).toBe("'str object' has no attribute 'nope'");
  });

  it('never expose JavaScript error texts', () => {
    for (const template of [
      '{% for %}',
      '{% from %}',
      '{% from "x" import %}',
      '{% import %}',
      '{% if %}',
      '{{',
      '{% set x %}',
      '{% macro m( %}',
      '{% call %}',
    ]) {
      expect(failure(template).message).not.toMatch(/Cannot read|undefined \(reading|is not a function|null/);
    }
  });

  it('reject unknown or unsupported parameters, naming them', () => {
    expect(failure('x', { params: { trim_block: true } }).message).toContain("'trim_block'");
    expect(failure('x', { params: { autoescape: true } }).message).toContain("'autoescape'");
    expect(failure('x', { params: { undefined: 'jinja2.Nope' } }).message).toContain("'undefined'");
    expect(failure('x', { params: { extensions: ['jinja2.ext.i18n'] } }).message).toContain("'extensions'");
    expect(failure('x', { params: { newline_sequence: '\t' } }).message).toContain("'newline_sequence'");
    expect(failure('x', { params: { block_start_string: '{{' } }).message).toBe(
      'block, variable and comment start strings must be different.',
    );
    expect(
      renderTemplate(
        'x',
        {},
        { params: { optimized: false, cache_size: 10, autoescape: false, undefined: 'jinja2.runtime.Undefined' } },
      ),
    ).toBe('x');
  });

  it('stop as soon as the output passes maxOutput', () => {
    let calls = 0;
    const counter = host('c', { tick: () => ++calls });
    expect(
      failure('{% for i in range(100) %}{{ c.tick() }}xxxxxxxxxx{% endfor %}', { maxOutput: 50 }, { c: counter })
        .message,
    ).toBe('Output exceeds 50 characters');
    expect(calls).toBeLessThan(10);
    expect(renderTemplate('{{ "x" * 50 }}', {}, { maxOutput: 50 })).toHaveLength(50);
  });
});

describe('output', () => {
  it('normalises CRLF to LF, as NetBox does', () => {
    expect(renderTemplate('a\r\n{{ "b\\r\\nc" }}', {})).toBe('a\nb\nc');
  });

  it('renders the same source with different parameters independently', () => {
    const source = '{% if true %}\nx\n{% endif %}\n';
    expect(renderTemplate(source, {})).toBe('\nx\n');
    expect(renderTemplate(source, {}, { params: { trim_blocks: true } })).toBe('x\n');
    expect(renderTemplate(source, {})).toBe('\nx\n');
  });

  it('lists its known differences from Jinja2, exactly those of its README', () => {
    expect(KNOWN_DIFFERENCES.length).toBeGreaterThan(0);
    for (const d of KNOWN_DIFFERENCES) expect(d).toMatch(/^\S.*\S$/);
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const list = /<!-- jinja-differences:start -->\n([\s\S]*?)<!-- jinja-differences:end -->/.exec(readme)?.[1];
    expect(list).toBe(KNOWN_DIFFERENCES.map((d) => `- ${d}\n`).join(''));
  });
});

describe('template hosts', () => {
  const site = host('DC1', { name: 'DC1', slug: 'dc1' });
  const interfaces = [host('eth0', { name: 'eth0', enabled: true }), host('eth1', { name: 'eth1', enabled: false })];
  const device = host('dev1', {
    name: 'dev1',
    site,
    interfaces: host('interfaces', { count: () => interfaces.length }, interfaces),
    none: undefined,
    nothing: () => undefined,
  });

  it('expose attributes and print with toString()', () => {
    expect(
      renderTemplate(
        '{{ device }} {{ device.name }} {{ device.site.slug }} {{ device.nope }}|{{ device.nope is defined }}',
        { device },
      ),
    ).toBe('dev1 dev1 dc1 |False');
    expect(renderTemplate('{{ [device, device.site] }} {{ {"d": device} }}', { device })).toBe(
      "[<Device: dev1>, <Device: DC1>] {'d': <Device: dev1>}",
    );
    expect(renderTemplate('{{ device.nothing() }}', { device })).toBe('None');
  });

  it('are iterable, sized, indexable and sliceable when they say so', () => {
    const t =
      '{% for i in device.interfaces %}{{ i.name }}{{ "," if not loop.last }}{% endfor %} {{ device.interfaces|length }}' +
      ' {{ device.interfaces.count() }} {{ device.interfaces|selectattr("enabled")|map(attribute="name")|list }}' +
      ' {{ device.interfaces[1].name }} {{ device.interfaces[-1:]|map(attribute="name")|join }} {{ "yes" if device.interfaces }}';
    expect(renderTemplate(t, { device })).toBe("eth0,eth1 2 2 ['eth0'] eth1 eth1 yes");
    expect(failure('{{ device|length }}', {}, { device }).message).toBe("object of type 'object' has no len()");
    expect(renderTemplate('{{ device[0] }}|{{ "yes" if device }}', { device })).toBe('|yes');
  });

  it('call functions with positional and keyword arguments', () => {
    const seen: unknown[] = [];
    const manager = host('manager', {
      filter: (...args: unknown[]) => {
        seen.push(splitArguments(args));
        return interfaces;
      },
    });
    const out = renderTemplate(
      "{{ m.filter('a', 2.0, missing, site='dc1', tags=['x'], d={'k': 1})|map(attribute='name')|join(',') }} {{ m.filter() is sequence }}",
      {
        m: manager,
      },
    );
    expect(out).toBe('eth0,eth1 True');
    expect(seen).toEqual([
      { positional: ['a', 2, undefined], keywords: { site: 'dc1', tags: ['x'], d: { k: 1 } } },
      { positional: [], keywords: {} },
    ]);
  });

  it('are never asked for private or Object.prototype names', () => {
    const asked: string[] = [];
    const spy: TemplateHost = { [HOST]: (key) => void asked.push(key), toString: () => 'spy' };
    renderTemplate(
      '{{ s._x }}{{ s.__class__ }}{{ s.constructor }}{{ s.toString }}{{ s.hasOwnProperty }}{{ s.valueOf }}{{ s.ok }}',
      { s: spy },
    );
    expect(asked).toEqual(['ok']);
  });
});
