/**
 * The differential corpus: templates rendered by real Jinja2 and by renderTemplate (jinja.test.ts), which must agree
 * byte for byte. Error cases (`expectError`) must fail on both sides. Contexts are JSON, as NetBox's config contexts.
 */
export interface Case {
  name: string;
  template: string;
  context: Record<string, unknown>;
  /** Jinja Environment keyword arguments (NetBox's environment_params). */
  params?: Record<string, unknown>;
  /** Other templates by name, for include/import/extends. */
  templates?: Record<string, string>;
  expectError?: boolean;
}

type Extra = Omit<Case, 'name' | 'template' | 'context'>;

const c = (name: string, template: string, context: Record<string, unknown> = {}, extra: Extra = {}): Case => ({
  name,
  template,
  context,
  ...extra,
});

const err = (name: string, template: string, context: Record<string, unknown> = {}, extra: Extra = {}): Case =>
  c(name, template, context, { ...extra, expectError: true });

const device = {
  name: 'dc1-leaf-01',
  role: { name: 'Leaf', slug: 'leaf' },
  site: { name: 'DC1', slug: 'dc1', region: null },
  platform: { name: 'EOS', slug: 'eos' },
  primary_ip4: { address: '10.0.0.11/32' },
  serial: 'SN123',
  tags: [
    { name: 'prod', slug: 'prod' },
    { name: 'evpn', slug: 'evpn' },
  ],
  custom_fields: { asn: 65011, rack_unit: null },
  interfaces: [
    {
      name: 'Ethernet1',
      enabled: true,
      mtu: 9214,
      mode: 'access',
      untagged_vlan: { vid: 10 },
      description: 'server-a',
      ip_addresses: [],
    },
    {
      name: 'Ethernet2',
      enabled: false,
      mtu: null,
      mode: null,
      untagged_vlan: null,
      description: '',
      ip_addresses: [],
    },
    {
      name: 'Ethernet49/1',
      enabled: true,
      mtu: 9214,
      mode: 'tagged',
      untagged_vlan: null,
      tagged_vlans: [{ vid: 10 }, { vid: 20 }, { vid: 30 }],
      description: 'uplink spine-01',
      ip_addresses: [{ address: '10.1.0.1/31' }],
    },
    {
      name: 'Loopback0',
      enabled: true,
      mtu: null,
      mode: null,
      untagged_vlan: null,
      description: 'router-id',
      ip_addresses: [{ address: '10.0.0.11/32' }],
    },
    {
      name: 'Management1',
      enabled: true,
      mtu: 1500,
      mode: null,
      untagged_vlan: null,
      description: 'oob',
      ip_addresses: [{ address: '192.168.0.11/24' }],
    },
  ],
};

const configContext = {
  ntp_servers: ['10.0.0.1', '10.0.0.2'],
  dns: { servers: ['1.1.1.1', '8.8.8.8'], domain: 'example.net' },
  syslog: { host: '10.9.9.9', port: 514, level: 'informational' },
  snmp: { community: 'public', location: 'DC1 "hall A"', contact: 'ops & <noc>' },
  bgp: {
    asn: 65011,
    router_id: '10.0.0.11',
    neighbors: [
      { ip: '10.1.0.0', remote_as: 65000, group: 'SPINE', description: 'spine-01' },
      { ip: '10.1.0.2', remote_as: 65000, group: 'SPINE', description: 'spine-02' },
      { ip: '192.0.2.1', remote_as: 64999, group: 'EDGE', description: 'isp-a' },
      { ip: '10.2.0.1', remote_as: 65011, group: 'IBGP', description: 'leaf-02' },
    ],
  },
  vlans: [
    { vid: 10, name: 'users' },
    { vid: 20, name: 'voice' },
    { vid: 30, name: 'servers' },
    { vid: 99, name: 'mgmt' },
  ],
  features: { lldp: true, ptp: false, evpn: true },
  mtu: 9214,
  ratio: 0.75,
};

const printing: Case[] = [
  c('print scalars', '{{ s }}|{{ i }}|{{ f }}|{{ t }}|{{ fl }}|{{ n }}|{{ missing }}|', {
    s: 'text',
    i: 42,
    f: 1.5,
    t: true,
    fl: false,
    n: null,
  }),
  c('print containers', '{{ l }} {{ d }} {{ e }} {{ el }}', {
    l: [1, 'a', null, true, 2.5],
    d: { a: 1, b: [1, 2], c: { d: null } },
    e: {},
    el: [],
  }),
  c(
    'print quoting',
    `{{ ["it's", 'say "hi"', 'both \\' and "', 'back\\\\slash', 'tab\\there', 'line\\nbreak', 'é ü', '\\x01'] }}`,
  ),
  c(
    'print literals',
    '{{ True }} {{ False }} {{ None }} {{ true }} {{ false }} {{ none }} {{ (1, 2) }} {{ (1,) }} {{ () }} {{ [] }} {{ {} }}',
  ),
  c(
    'print numbers',
    '{{ 10 / 2 }} {{ 7 / 2 }} {{ 1.0 }} {{ 2.50 }} {{ 1e3 }} {{ 1_000 }} {{ 0x1F }} {{ 0o17 }} {{ 0b101 }} {{ 1.5e-5 }} {{ 1e16 }} {{ 0.1 + 0.2 }} {{ -0.0 }}',
  ),
  c(
    'print int float arithmetic',
    '{{ 2 * 3 }} {{ 2 * 3.0 }} {{ 7 // 2 }} {{ -7 // 2 }} {{ 7.0 // 2 }} {{ 7 % 3 }} {{ -7 % 3 }} {{ 7 % -3 }} {{ 5.5 % 2 }} {{ 2 ** 10 }} {{ 2 ** -1 }} {{ 2 ** 0.5 }} {{ 2 ** 3 ** 2 }}',
  ),
  c('print unary', '{{ -x }} {{ +x }} {{ -2 ** 2 }} {{ -(2) }} {{ -f }}', { x: 3, f: 1.5 }),
  c('print nested repr', '{{ [[1, [2, {"k": ("t", 1.0)}]], {"x": ["y"]}] }}'),
  c(
    'print dict literal int keys',
    '{% set speeds = {1000: "1G", 10000: "10G"} %}{{ speeds[1000] }} {{ speeds }} {{ speeds[10000.0] }}',
  ),
  c('print unicode', '{{ name }} {{ name|length }} {{ name|upper }} {{ name[0] }}', { name: 'café ünïcode' }),
  c('print adjacent string literals', "{{ 'a' 'b' \"c\" }}"),
  c(
    'string escapes',
    `{{ 'a\\tb' }}|{{ "q\\"uote" }}|{{ 'u\\u00e9' }}|{{ 'x\\x41' }}|{{ 'keep \\d' }}|{{ 'oct \\101' }}`,
  ),
  c('comments', 'a{# a comment #}b{#- stripped -#}  c {# multi\nline #}d'),
];

const operators: Case[] = [
  c('concat tilde', "{{ 'a' ~ 1 ~ none ~ true ~ 1.0 ~ [1] ~ missing }}"),
  c(
    'string plus and repeat',
    "{{ 'ab' + 'cd' }} {{ 'ab' * 3 }} {{ 3 * '-' }} {{ [1, 2] * 2 }} {{ [1] + [2, 3] }} {{ (1,) + (2,) }}",
  ),
  c(
    'in and not in',
    "{{ 'a' in 'cat' }} {{ 2 in [1, 2] }} {{ 'k' in {'k': 1} }} {{ 3 not in [1, 2] }} {{ 'x' not in 'abc' }} {{ 1 in (1, 2) }} {{ 5 in range(10) }}",
  ),
  c(
    'comparisons',
    "{{ 1 < 2 < 3 }} {{ 3 > 2 > 2 }} {{ 1 == 1.0 }} {{ 'a' < 'b' }} {{ [1, 2] < [1, 3] }} {{ (1, 2) == [1, 2] }} {{ none == false }} {{ 1 == true }} {{ 'B' < 'a' }} {{ 1 != 2 }} {{ 2 >= 2 }} {{ 2 <= 1 }}",
  ),
  c(
    'and or values',
    "{{ 0 or 'x' }} {{ 'a' and 'b' }} {{ [] or [1] }} {{ none or false }} {{ 1 and 0 }} {{ missing or 'fallback' }} {{ not [] }} {{ not 'x' }}",
  ),
  c(
    'conditional expressions',
    "{{ 'yes' if flag else 'no' }} {{ 'x' if not flag }}|{{ 1 if false else 2 if false else 3 }}",
    { flag: true },
  ),
  c(
    'slices',
    '{{ s[1:] }} {{ s[:2] }} {{ s[::-1] }} {{ s[-2:] }} {{ l[1:3] }} {{ l[::2] }} {{ l[-1] }} {{ l[5:] }} {{ t[1:] }} {{ range(10)[2:8:3] }}',
    { s: 'abcdef', l: [1, 2, 3, 4, 5], t: [9, 8, 7] },
  ),
  c(
    'percent formatting',
    "{{ '%s-%d' % ('a', 3) }} {{ '%05.1f|%x|%X|%o|%r|%-4s|%4s|' % (3.14159, 255, 255, 8, 'a', 'b', 'c') }} {{ '%(a)s=%(b)03d' % {'a': 'x', 'b': 7} }} {{ '%d%%' % 50 }} {{ '%s' % [1, 2] }} {{ '%.2e' % 12345.678 }} {{ '%g %g' % (0.00001234, 1e20) }} {{ '%+d % d' % (5, 5) }}",
  ),
  c(
    'str format method',
    "{{ '{}-{}'.format('a', 1) }} {{ '{0}{1}{0}'.format('x', 'y') }} {{ '{name}@{host}'.format(name='u', host='h') }} {{ '{:>6}|{:<6}|{:^6}|'.format('r', 'l', 'c') }} {{ '{:03d} {:x} {:08.3f} {:,}'.format(7, 255, 3.14159, 1234567) }} {{ '{:.1%}'.format(0.25) }} {{ '{!r}'.format('q') }} {{ '{0[0]}-{1.a}'.format([5], {'a': 6}) }} {{ '{{literal}}'.format() }}",
  ),
  c(
    'number equality across types',
    '{{ 1 == 1.0 == true }} {{ [1, 2.0] == [1.0, 2] }} {{ {"a": 1} == {"a": 1.0} }} {{ 0 == false }}',
  ),
  c(
    'floor div and mod of floats',
    '{{ 7.5 // 2 }} {{ -7.5 // 2 }} {{ 7.5 % 2 }} {{ -7.5 % 2 }} {{ 1 / 3 }} {{ 2 / 3 * 3 }}',
  ),
  c(
    'operator precedence',
    '{{ 1 + 2 * 3 }} {{ (1 + 2) * 3 }} {{ 2 * 3 // 4 }} {{ 10 - 2 - 3 }} {{ 2 ** 2 * 3 }} {{ not 1 == 2 }} {{ 1 + 1 == 2 and 3 > 2 }}',
  ),
  c(
    'filters bind tighter than operators',
    "{{ -x|abs }} {{ items|length + 1 }} {{ 'a' ~ items|join(',') }} {{ 2 * items|length }}",
    { x: 5, items: [1, 2] },
  ),
  c(
    'tests bind tighter than and',
    '{{ x is defined and x > 1 }} {{ y is not defined or y }} {{ x is number and x is odd }}',
    { x: 3 },
  ),
];

const loops: Case[] = [
  c(
    'loop variables',
    '{% for x in items %}{{ loop.index }}/{{ loop.index0 }}/{{ loop.revindex }}/{{ loop.revindex0 }}/{{ loop.first }}/{{ loop.last }}/{{ loop.length }}/{{ loop.depth }} {% endfor %}',
    { items: ['a', 'b', 'c'] },
  ),
  c(
    'loop cycle previtem nextitem',
    '{% for x in items %}{{ loop.cycle("odd", "even") }}:{{ loop.previtem }}<{{ x }}>{{ loop.nextitem }};{% endfor %}',
    { items: [1, 2, 3] },
  ),
  c(
    'loop changed',
    '{% for v in vlans %}{% if loop.changed(v.vid // 100) %}[{{ v.vid // 100 }}]{% endif %}{{ v.vid }} {% endfor %}',
    {
      vlans: [{ vid: 10 }, { vid: 20 }, { vid: 110 }, { vid: 120 }, { vid: 250 }],
    },
  ),
  c(
    'for else',
    '{% for x in [] %}{{ x }}{% else %}empty{% endfor %} {% for x in missing %}{{ x }}{% else %}none{% endfor %}',
  ),
  c(
    'for over dict items',
    '{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %} {% for k in d %}{{ k }}{% endfor %} {% for v in d.values() %}{{ v }}{% endfor %}',
    { d: { b: 2, a: 1, c: [3] } },
  ),
  c(
    'for with filter',
    '{% for i in interfaces if i.enabled %}{{ loop.index }}:{{ i.name }}/{{ loop.length }} {% endfor %}',
    { interfaces: device.interfaces },
  ),
  c(
    'for tuple unpacking',
    '{% for a, (b, c) in [(1, (2, 3)), (4, (5, 6))] %}{{ a + b + c }} {% endfor %}{% for a, b in ["xy", "zw"] %}{{ b }}{{ a }}{% endfor %}',
  ),
  c(
    'for over string and range',
    "{% for ch in 'abc' %}{{ ch }}.{% endfor %} {% for i in range(3) %}{{ i }}{% endfor %} {% for i in range(10, 0, -3) %}{{ i }},{% endfor %}",
  ),
  c(
    'nested loops and outer loop',
    '{% for row in rows %}{% set outer = loop %}{% for col in row %}{{ outer.index }}.{{ loop.index }}={{ col }} {% endfor %}{% endfor %}',
    {
      rows: [
        ['a', 'b'],
        ['c', 'd'],
      ],
    },
  ),
  c(
    'set in loop does not leak',
    '{% set count = 0 %}{% for x in [1, 2, 3] %}{% set count = count + x %}{{ count }}{% endfor %}|{{ count }}',
  ),
  c(
    'set in loop resets each iteration',
    "{% for i in range(3) %}{% if i == 1 %}{% set x = 'a' %}{% endif %}[{{ x }}]{% endfor %}",
  ),
  c(
    'recursive loop',
    '{% for item in tree recursive %}<{{ item.name }}{% if item.children %}:{{ loop(item.children) }}{% endif %}@{{ loop.depth }}>{% endfor %}',
    {
      tree: [{ name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }, { name: 'd' }] }, { name: 'e' }],
    },
  ),
  c(
    'loop controls',
    '{% for i in range(10) %}{% if i is odd %}{% continue %}{% endif %}{% if i > 6 %}{% break %}{% endif %}{{ i }}{% endfor %}',
    {},
    {
      params: { extensions: ['jinja2.ext.loopcontrols'] },
    },
  ),
  c(
    'loop over generator filters',
    "{% for x in items|select('odd') %}{{ x }}{% endfor %} {% for x in items|map('string')|reverse %}{{ x }}{% endfor %}",
    { items: [1, 2, 3, 4, 5] },
  ),
  c('loop index in filter', '{% for x in items if x > 1 %}{{ loop.index }}{{ x }}{% else %}none{% endfor %}', {
    items: [1, 2, 3],
  }),
];

const assignments: Case[] = [
  c(
    'namespace counter',
    '{% set ns = namespace(count=0, names=[]) %}{% for i in interfaces %}{% if i.enabled %}{% set ns.count = ns.count + 1 %}{% endif %}{% endfor %}{{ ns.count }} {{ ns }}',
    {
      interfaces: device.interfaces,
    },
  ),
  c(
    'namespace found flag',
    '{% set ns = namespace(found=false) %}{% for v in vlans %}{% if v.vid == 30 %}{% set ns.found = v.name %}{% endif %}{% endfor %}{{ ns.found }}',
    configContext,
  ),
  c('namespace from dict', "{% set ns = namespace({'a': 1}, b=2) %}{{ ns.a }}{{ ns.b }}{{ ns['a'] }}{{ ns.c }}"),
  c(
    'set block',
    '{% set banner %}Welcome to {{ device.name }}\nManaged by NetBox{% endset %}{{ banner|upper }}|{{ banner|length }}',
    { device },
  ),
  c(
    'set block with filter',
    '{% set greeting | upper | replace("O", "0") %}hello {{ name }}{% endset %}{{ greeting }}',
    { name: 'world' },
  ),
  c(
    'set tuple unpacking',
    '{% set a, b = 1, 2 %}{% set c, d = [3, 4] %}{{ a }}{{ b }}{{ c }}{{ d }}{% set x = 1, 2 %}{{ x }}',
  ),
  c('with block', '{% with a = 1, b = 2 %}{{ a + b }}{% set a = 5 %}{{ a }}{% endwith %}[{{ a }}]'),
  c(
    'filter block',
    '{% filter upper %}hello {{ name }}{% endfilter %} {% filter indent(2, true) %}a\nb{% endfilter %} {% filter replace("a", "o")|title %}banana split{% endfilter %}',
    { name: 'x' },
  ),
  c('autoescape false block', "{% autoescape false %}{{ '<b>' }}{% set x = 1 %}{% endautoescape %}[{{ x }}]"),
  c(
    'do statement',
    '{% set l = [] %}{% do l.append(1) %}{% do l.extend([2, 3]) %}{{ l }}',
    {},
    { params: { extensions: ['jinja2.ext.do'] } },
  ),
  c(
    'list and dict mutation',
    "{% set l = [3, 1] %}{{ l.append(2) }}{{ l }}{{ l.pop() }}{{ l.sort() }}{{ l }}{{ l.insert(0, 9) }}{{ l.index(9) }}{{ l.count(1) }}{{ l.reverse() }}{{ l }}{% set d = {'a': 1} %}{{ d.update({'b': 2}) }}{{ d }}{{ d.pop('a') }}{{ d.setdefault('c', 3) }}{{ d }}{{ d.get('x', 'dflt') }}{{ d.get('b') }}{{ d.copy() }}",
  ),
];

const macros: Case[] = [
  c(
    'macro defaults and kwargs',
    "{% macro iface(name, mtu=1500, desc='') %}interface {{ name }} mtu {{ mtu }}{% if desc %} desc {{ desc }}{% endif %};{% endmacro %}{{ iface('e1') }}{{ iface('e2', 9000) }}{{ iface('e3', desc='up') }}{{ iface(name='e4', mtu=1) }}",
  ),
  c(
    'macro varargs kwargs',
    '{% macro m(a) %}{{ a }}|{{ varargs }}|{{ kwargs }}{% endmacro %}{{ m(1, 2, 3, x=4) }} {{ m(1) }}',
  ),
  c('macro missing argument', '{% macro m(a, b) %}[{{ a }}][{{ b }}]{% endmacro %}{{ m(1) }}'),
  c(
    'macro default uses earlier argument',
    '{% macro m(a, b=a * 2) %}{{ a }},{{ b }}{% endmacro %}{{ m(3) }} {{ m(3, 1) }}',
  ),
  c(
    'macro caller',
    '{% macro box(title) %}[{{ title }}: {{ caller() }}]{% endmacro %}{% call box("t") %}body {{ 1 + 1 }}{% endcall %}',
  ),
  c(
    'call block with arguments',
    '{% macro each(items) %}{% for i in items %}{{ caller(i, loop.index) }}{% endfor %}{% endmacro %}{% call(item, n) each(["a", "b"]) %}{{ n }}={{ item }} {% endcall %}',
  ),
  c(
    'macro recursion',
    '{% macro fact(n) %}{% if n <= 1 %}1{% else %}{{ n * fact(n - 1)|int }}{% endif %}{% endmacro %}{{ fact(6) }}',
  ),
  c('macro sees globals at call time', '{% macro m() %}{{ y }}{% endmacro %}{{ m() }}{% set y = 2 %}{{ m() }}'),
  c('macro print', '{% macro m() %}{% endmacro %}{{ m }}'),
  c(
    'macro returns string',
    '{% macro m(x) %}{{ x }}{% endmacro %}{{ m(5)|int + 1 }} {{ m("a") ~ m("b") }} {{ m(1) is string }}',
  ),
  c('macro loop closure', '{% for x in [1, 2] %}{% macro m() %}{{ x }}{% endmacro %}{{ m() }}{% endfor %}'),
];

const whitespace: Case[] = [
  c('trailing newline stripped', 'line\n'),
  c('only last newline stripped', 'a\n\n'),
  c('keep trailing newline', 'a\n', {}, { params: { keep_trailing_newline: true } }),
  c('crlf source', 'a\r\nb\r\n{% if true %}\r\nc\r\n{% endif %}\r\n'),
  c('dash markers', 'a  {%- if true -%}  b  {%- endif -%}  c\n  {{- " d " -}}  \ne {#- x -#}\n f'),
  c(
    'plus marker disables lstrip',
    '  {%+ if true %}x{% endif %}\n  {% if true %}y{% endif %}',
    {},
    { params: { lstrip_blocks: true } },
  ),
  c('trim blocks', '{% for i in [1, 2] %}\n{{ i }}\n{% endfor %}\n{# c #}\nend', {}, { params: { trim_blocks: true } }),
  c(
    'trim and lstrip blocks',
    'interfaces:\n  {% for i in items %}\n  - {{ i }}\n  {% endfor %}\n    {# note #}\ndone\n',
    { items: ['a', 'b'] },
    { params: { trim_blocks: true, lstrip_blocks: true } },
  ),
  c('lstrip not after text', 'x {% if true %}y{% endif %}\n  {{ "v" }}', {}, { params: { lstrip_blocks: true } }),
  c('plus disables trim', '{% if true +%}\nkept{% endif %}', {}, { params: { trim_blocks: true } }),
  c('raw block', '{% raw %}{{ not rendered }} {% if %}{% endraw %}|{%- raw -%}  x  {%- endraw -%}  |'),
  c(
    'custom delimiters',
    '<% for x in items %>[[ x ]]<# c #><% endfor %>{{ literal }}',
    { items: [1, 2] },
    {
      params: {
        block_start_string: '<%',
        block_end_string: '%>',
        variable_start_string: '[[',
        variable_end_string: ']]',
        comment_start_string: '<#',
        comment_end_string: '#>',
      },
    },
  ),
  c(
    'line statements',
    '# for x in items\n- {{ x }} ## note\n# endfor\n',
    { items: [1, 2] },
    { params: { line_statement_prefix: '#', line_comment_prefix: '##' } },
  ),
  c(
    'newline sequence',
    'a\nb\n{{ "c\\nd" }}',
    {},
    { params: { newline_sequence: '\r\n', keep_trailing_newline: true } },
  ),
  c('whitespace control in expressions', '[{{- " a " -}}]\n[  {{- 1 }}  ]'),
  c(
    'lstrip with tabs and comments',
    '\t{% if true %}\n\tx\n\t{% endif %}\nx {# c #}\n  {# c2 #}\ny',
    {},
    { params: { lstrip_blocks: true, trim_blocks: true } },
  ),
  c(
    'trim blocks keeps spaces before newline',
    '{% if true %}   \nx{% endif %}{% if true %}\r\ny{% endif %}',
    {},
    { params: { trim_blocks: true } },
  ),
  c(
    'dash inside trimmed loop',
    '{% for i in items -%}\n  {{ i }}\n{%- endfor %}\na\n  {%- if true %}\n  b\n  {% endif -%}\n  c\n',
    { items: [1, 2] },
    {
      params: { trim_blocks: true, lstrip_blocks: true },
    },
  ),
  c(
    'raw with lstrip and trim',
    '  {% raw %}{{ x }}{% endraw %}\n  {%- raw -%}  y  {%- endraw -%}  \n  z',
    {},
    { params: { lstrip_blocks: true, trim_blocks: true } },
  ),
  c('multi-line tags', "{% set a = {'x': 1}\n %}{{ a }}{{ [\n  1,\n  2\n] }}{%\nif true\n%}y{%\nendif\n%}"),
  c('colon before block end', '{% for i in [1, 2]: %}{{ i }}{% else: %}none{% endfor %}{% if true: %}t{% endif %}'),
  c(
    'line statement with colon',
    '# for i in [1, 2]:\n{{ i }}\n# endfor',
    {},
    { params: { line_statement_prefix: '#' } },
  ),
  c('braces inside expressions', "{{ '}}' }} {{ {'a': {'b': 1}} }}{{ (1, {'x': [2]}) }}"),
  c('empty template', ''),
  c('only newline', '\n'),
];

const tests: Case[] = [
  c(
    'type tests',
    '{% for v in values %}{{ v is none }}{{ v is number }}{{ v is string }}{{ v is mapping }}{{ v is sequence }}{{ v is iterable }}{{ v is boolean }}{{ v is integer }}{{ v is float }}{{ v is true }}{{ v is false }}{{ v is callable }} {% endfor %}',
    { values: [null, 1, 1.5, 'a', { a: 1 }, [1], true, false] },
  ),
  c(
    'defined tests',
    '{{ x is defined }} {{ y is defined }} {{ y is undefined }} {{ x.nope is defined }} {{ d.k is defined }}',
    { x: 1, d: { k: null } },
  ),
  c(
    'number tests',
    '{{ 4 is even }} {{ 3 is odd }} {{ 9 is divisibleby 3 }} {{ 9 is divisibleby(4) }} {{ 2.0 is even }} {{ 0 is even }}',
  ),
  c(
    'comparison tests',
    "{{ 1 is eq 1 }} {{ 1 is ne 2 }} {{ 1 is lt 2 }} {{ 2 is gt 1 }} {{ 2 is ge 2 }} {{ 2 is le 1 }} {{ 1 is equalto 1 }} {{ 2 is greaterthan 1 }} {{ 1 is lessthan 2 }} {{ 'a' is in 'abc' }} {{ 3 is in [1, 2] }}",
  ),
  c('string case tests', "{{ 'abc' is lower }} {{ 'ABC' is upper }} {{ 'aBc' is lower }} {{ '123' is upper }}"),
  c(
    'sameas filter test tests',
    "{{ none is sameas none }} {{ true is sameas true }} {{ 'upper' is filter }} {{ 'nope' is filter }} {{ 'odd' is test }} {{ 'nope' is test }}",
  ),
  c(
    'tests in select',
    "{{ items|select('even')|list }} {{ items|reject('divisibleby', 3)|list }} {{ items|select('gt', 2)|list }} {{ items|select|list }}",
    { items: [0, 1, 2, 3, 4, 5, 6] },
  ),
];

const filters: Case[] = [
  c(
    'abs attr batch',
    "{{ -3|abs }} {{ -2.5|abs }} {{ d|attr('items')|list if false else d|attr('a') }} {{ items|batch(2)|list }} {{ items|batch(2, 'x')|list }}",
    { d: { a: 1 }, items: [1, 2, 3] },
  ),
  c(
    'capitalize center count',
    "{{ 'hELLO world'|capitalize }}|{{ 'ab'|center(7) }}|{{ 'ab'|center(6) }}|{{ items|count }}|{{ 'abc'|count }}|{{ d|count }}",
    { items: [1, 2], d: { a: 1 } },
  ),
  c(
    'default',
    "{{ missing|default('d') }} {{ ''|default('d') }} {{ ''|default('d', true) }} {{ none|default('d') }} {{ none|d('d', boolean=true) }} {{ 0|d(5, true) }} {{ x|default(x) }}",
    { x: 'set' },
  ),
  c(
    'dictsort',
    "{{ d|dictsort }} {{ d|dictsort(by='value') }} {{ d|dictsort(reverse=true) }} {{ mixed|dictsort }} {{ mixed|dictsort(true) }}",
    { d: { b: 1, a: 3, c: 2 }, mixed: { b: 1, A: 2, a: 3 } },
  ),
  c('escape', "{{ '<a href=\"x\">&\\'</a>'|e }} {{ 5|escape }} {{ '<b>'|forceescape }}"),
  c(
    'first last',
    "{{ items|first }} {{ items|last }} {{ 'abc'|first }} {{ 'abc'|last }} {{ []|first }}|{{ range(5)|last }} {{ d|first }}",
    { items: [3, 2, 1], d: { k: 1 } },
  ),
  c(
    'float int',
    "{{ '3.5'|float }} {{ 'x'|float }} {{ 'x'|float(1.5) }} {{ 3|float }} {{ '42'|int }} {{ '3.7'|int }} {{ 'x'|int }} {{ 'x'|int(-1) }} {{ '0x1A'|int(0, 16) }} {{ '1_000'|int }} {{ 5.9|int }} {{ true|int }} {{ none|int }} {{ ' 12 '|int }} {{ '0b11'|int(base=0) }} {{ '1e3'|float }} {{ '-7'|int }}",
  ),
  c(
    'format filter',
    "{{ '%s is %d years'|format('x', 3) }} {{ '%(a)s-%(b)s'|format(a=1, b=2) }} {{ '%5.2f'|format(3.14159) }}",
  ),
  c(
    'groupby',
    "{% for g in neighbors|groupby('group') %}{{ g.grouper }}: {{ g.list|map(attribute='ip')|join(', ') }}; {% endfor %}{% for key, items in neighbors|groupby('remote_as') %}{{ key }}={{ items|length }} {% endfor %}",
    configContext.bgp,
  ),
  c(
    'groupby case and default',
    "{{ items|groupby('k')|map(attribute='grouper')|list }} {{ items|groupby('k', case_sensitive=true)|map(attribute='grouper')|list }} {{ items|groupby('missing', default='none')|list }}",
    {
      items: [{ k: 'b' }, { k: 'A' }, { k: 'a' }, { k: 'B' }],
    },
  ),
  c(
    'indent',
    "{{ text|indent }}|{{ text|indent(2, true) }}|{{ text|indent(2, blank=true) }}|{{ text|indent('> ', first=true) }}|{{ 'one'|indent }}",
    { text: 'a\n\nb\n c\n' },
  ),
  c('items filter', '{{ d|items|list }} {% for k, v in d|items %}{{ k }}{{ v }}{% endfor %} {{ missing|items|list }}', {
    d: { x: 1, y: 2 },
  }),
  c(
    'join',
    "{{ items|join }} {{ items|join(', ') }} {{ objs|join('/', attribute='n') }} {{ [1, none, 2.0]|join('-') }} {{ 'abc'|join('.') }}",
    { items: ['a', 'b'], objs: [{ n: 1 }, { n: 2 }] },
  ),
  c(
    'length list lower',
    "{{ 'abc'|length }} {{ [1, 2]|length }} {{ {'a': 1}|length }} {{ 'abc'|list }} {{ {'a': 1, 'b': 2}|list }} {{ range(3)|list }} {{ 'ABC'|lower }}",
  ),
  c(
    'map',
    "{{ items|map('upper')|list }} {{ objs|map(attribute='n')|list }} {{ objs|map(attribute='m', default=0)|list }} {{ items|map('replace', 'a', 'o')|join }} {{ nested|map(attribute='x.y')|list }} {{ pairs|map(attribute='1')|list }}",
    {
      items: ['a', 'ba'],
      objs: [{ n: 1 }, { n: 2, m: 5 }],
      nested: [{ x: { y: 1 } }, { x: { y: 2 } }],
      pairs: [
        ['a', 1],
        ['b', 2],
      ],
    },
  ),
  c(
    'min max',
    "{{ [3, 1, 2]|min }} {{ [3, 1, 2]|max }} {{ ['b', 'A', 'c']|min }} {{ ['b', 'A', 'c']|max(case_sensitive=true) }} {{ objs|max(attribute='n') }} {{ []|min }}",
    { objs: [{ n: 1 }, { n: 7 }] },
  ),
  c('pprint', "{{ d|pprint }} {{ 'x'|pprint }} {{ [1, 2]|pprint }}", { d: { b: 1, a: [1, 2], c: { z: 1, y: 2 } } }),
  c('pprint wraps long values', '{{ ctx|pprint }}', { ctx: configContext }),
  c(
    'reject select attr',
    "{{ interfaces|selectattr('enabled')|map(attribute='name')|list }} {{ interfaces|rejectattr('enabled')|map(attribute='name')|list }} {{ interfaces|selectattr('mtu', 'equalto', 9214)|map(attribute='name')|join(',') }} {{ interfaces|selectattr('mode', 'none')|list|length }}",
    { interfaces: device.interfaces },
  ),
  c(
    'replace',
    "{{ 'aaa'|replace('a', 'b') }} {{ 'aaa'|replace('a', 'b', 2) }} {{ 'Ethernet1/1'|replace('Ethernet', 'Eth') }} {{ 12|replace('1', 'x') }} {{ 'ab'|replace('', '-') }}",
  ),
  c(
    'reverse',
    "{{ 'abc'|reverse }} {{ [1, 2, 3]|reverse|list }} {{ (1, 2)|reverse|list }} {{ range(3)|reverse|list }} {{ {'a': 1, 'b': 2}|reverse|list }}",
  ),
  c(
    'round',
    "{{ 2.5|round }} {{ 3.5|round }} {{ 2.675|round(2) }} {{ 0.125|round(2) }} {{ 5|round }} {{ 5|round(method='ceil') }} {{ 4.2|round(method='ceil') }} {{ 4.8|round(method='floor') }} {{ 1234.5|round(-2) }} {{ 42.55|round(1, 'floor') }}",
  ),
  c('safe string', "{{ '<b>'|safe }} {{ 5|string }} {{ none|string }} {{ [1]|string }} {{ (5|string) ~ 'x' }}"),
  c('slice', '{{ items|slice(3)|list }} {{ items|slice(3, 0)|list }} {{ items|slice(2)|list }}', {
    items: [1, 2, 3, 4, 5, 6, 7],
  }),
  c(
    'sort',
    "{{ [3, 1, 2]|sort }} {{ [3, 1, 2]|sort(reverse=true) }} {{ ['b', 'A', 'c']|sort }} {{ ['b', 'A', 'c']|sort(case_sensitive=true) }} {{ vlans|sort(attribute='name')|map(attribute='vid')|list }} {{ people|sort(attribute='age,name')|map(attribute='name')|join }}",
    {
      vlans: configContext.vlans,
      people: [
        { name: 'c', age: 2 },
        { name: 'a', age: 2 },
        { name: 'b', age: 1 },
      ],
    },
  ),
  c('striptags', "{{ '<p>Hello <b>World</b></p>  <!-- c -->\n more &amp; &lt;x&gt; &#65;'|striptags }}"),
  c(
    'sum',
    "{{ [1, 2, 3]|sum }} {{ objs|sum(attribute='n') }} {{ [1.5, 2]|sum }} {{ [1]|sum(start=10) }} {{ [[1], [2]]|sum(start=[]) }}",
    { objs: [{ n: 1 }, { n: 2 }] },
  ),
  c('title', "{{ 'hello world-wide (test) [x] <y> they\\'re'|title }} {{ 'ALL CAPS'|title }}"),
  c(
    'tojson',
    "{{ d|tojson }}|{{ d|tojson(2) }}|{{ 'é <script>'|tojson }}|{{ [1, 2.0, none, true]|tojson }}|{{ {}|tojson(4) }}|{{ {'b': [], 'a': {}}|tojson(1) }}",
    { d: { z: 1, a: [1, { b: "it's" }], m: 'a&b' } },
  ),
  c('tojson of config context', '{{ ctx|tojson(indent=2) }}', { ctx: configContext }),
  c('trim', "[{{ '  x  '|trim }}] [{{ 'xxaxx'|trim('x') }}] [{{ '\n\tx '|trim }}]"),
  c(
    'truncate',
    "{{ 'hello world foo bar'|truncate(9) }}|{{ 'hello world foo bar'|truncate(9, true) }}|{{ 'hello world foo bar'|truncate(11, end='') }}|{{ 'short'|truncate(3, leeway=2) }}|{{ 'hello world foo bar baz qux'|truncate(16, leeway=0) }}",
  ),
  c(
    'unique',
    "{{ [1, 2, 1, 3]|unique|list }} {{ ['a', 'A', 'b']|unique|list }} {{ ['a', 'A', 'b']|unique(case_sensitive=true)|list }} {{ objs|unique(attribute='n')|list }}",
    { objs: [{ n: 1 }, { n: 1 }, { n: 2 }] },
  ),
  c(
    'upper urlencode',
    "{{ 'abc'|upper }} {{ 'a b/c?d=é'|urlencode }} {{ {'q': 'a b', 'n': 1}|urlencode }} {{ [('x', 'y&z')]|urlencode }} {{ 5|urlencode }}",
  ),
  c(
    'wordcount wordwrap',
    "{{ 'one two  three-four'|wordcount }}|{{ text|wordwrap(20) }}|{{ text|wordwrap(10, wrapstring='<br>') }}|{{ 'aaaaaaaaaaaaaaaa bbb'|wordwrap(6) }}|{{ 'aaaaaaaaaa bb'|wordwrap(4, false) }}|{{ 'well-known long-hyphenated-words here'|wordwrap(12) }}",
    {
      text: 'The quick brown fox jumps over the lazy dog.\nSecond paragraph line here.',
    },
  ),
  c(
    'wordwrap of long words to a narrow width',
    "{{ ('x' * 9999)|wordwrap(1)|length }}|{{ 'ab-cd-ef--gh'|wordwrap(1) }}|{{ '\u{1F600}\u{1F600}-\u{1F600}abc-de'|wordwrap(2) }}|{{ 'aaaa-bbbb-cccc dd--ee'|wordwrap(4) }}",
  ),
  c(
    'xmlattr',
    "<a{{ {'href': 'x&y', 'title': '\"q\"', 'none': none, 'n': 1}|xmlattr }}> <b{{ {'c': 'd'}|xmlattr(false) }}>",
  ),
  c(
    'filesizeformat',
    '{{ 1|filesizeformat }} {{ 999|filesizeformat }} {{ 1000|filesizeformat }} {{ 1536|filesizeformat(true) }} {{ 123456789|filesizeformat }} {{ 1e30|filesizeformat }}',
  ),
  c(
    'list filter on generators',
    "{{ items|map('upper')|list|length }} {{ items|select|first }} {{ items|unique|join(',') }}",
    { items: ['a', 'b', 'a'] },
  ),
  c(
    'filters on undefined',
    "{{ x|upper }}|{{ x|length }}|{{ x|list }}|{{ x|join(',') }}|{{ x|first }}|{{ x|default('d') }}|{{ x|string }}|{{ x|trim }}|{{ x|e }}|{{ x|sort }}|{{ x|unique|list }}|{{ x|map('upper')|list }}|{{ x|sum }}|{{ x|center(3) }}|{{ x|pprint }}|{{ x|title }}|{{ x|urlencode }}|{{ x|count }}",
  ),
];

const methods: Case[] = [
  c(
    'str methods case',
    '{{ s.upper() }} {{ s.lower() }} {{ s.title() }} {{ s.capitalize() }} {{ s.swapcase() }} {{ "they\'re bill\'s".title() }}',
    { s: 'hello World' },
  ),
  c(
    'str methods search',
    "{{ s.startswith('Eth') }} {{ s.endswith(('1', '2')) }} {{ s.find('net') }} {{ s.rfind('e') }} {{ s.index('t') }} {{ s.count('e') }} {{ s.find('zz') }} {{ s.startswith('net', 3) }}",
    { s: 'Ethernet1' },
  ),
  c(
    'str methods split',
    "{{ s.split() }} {{ s.split(' ', 1) }} {{ 'a,b,,c'.split(',') }} {{ s.rsplit(None, 1) }} {{ 'a\\nb\\r\\nc'.splitlines() }} {{ '1.2.3'.rsplit('.', 1) }} {{ s.partition(' ') }} {{ s.rpartition('x') }}",
    { s: '  ge-0/0/1  unit 0 ' },
  ),
  c(
    'str methods strip pad',
    "[{{ s.strip() }}][{{ s.lstrip() }}][{{ s.rstrip() }}][{{ 'xxhixx'.strip('x') }}][{{ '7'.zfill(3) }}][{{ '-7'.zfill(3) }}][{{ 'ab'.ljust(5, '.') }}][{{ 'ab'.rjust(5) }}][{{ 'ab'.center(5, '*') }}]",
    { s: '  pad  ' },
  ),
  c(
    'str methods predicates',
    "{{ '123'.isdigit() }} {{ 'abc'.isalpha() }} {{ 'a1'.isalnum() }} {{ '  '.isspace() }} {{ 'abc'.islower() }} {{ 'ABC'.isupper() }} {{ ''.isdigit() }} {{ 'Ab'.istitle() }}",
  ),
  c(
    'str methods join replace format',
    "{{ ', '.join(items) }} {{ '-'.join('abc') }} {{ 'a-b'.replace('-', '_') }} {{ '{}/{}'.format(1, 2) }} {{ 'vlan{:04d}'.format(10) }}",
    { items: ['x', 'y'] },
  ),
  c(
    'string indexing and iteration',
    '{{ s[0] }}{{ s[-1] }} {{ s|list }} {% for ch in s %}{{ ch }}-{% endfor %} {{ s[10] }}|',
    { s: 'abc' },
  ),
  c(
    'dict methods',
    "{{ d.keys()|list }} {{ d.values()|list }} {{ d.items()|list }} {{ d.get('a') }} {{ d.get('z') }} {{ d.get('z', 0) }} {{ 'a' in d.keys() }} {{ d.items() }} {{ d.keys() }}",
    { d: { a: 1, b: 2 } },
  ),
  c(
    'dict attribute vs key',
    "{{ d.name }} {{ d['name'] }} {{ d.items is defined }} {{ d['items'] }} {{ d.get('items') }}",
    { d: { name: 'x', items: [1] } },
  ),
  c('list methods on context', '{% set _ = l.append(4) %}{{ l }} {{ l.index(2) }} {{ l.count(1) }} {{ l|length }}', {
    l: [1, 2, 3],
  }),
  c(
    'range object',
    '{{ range(3) }} {{ range(1, 10, 2) }} {{ range(5)|length }} {{ range(3)[1] }} {{ 2 in range(3) }} {{ range(0) }}',
  ),
];

const undefinedCases: Case[] = [
  c('undefined prints empty', '[{{ missing }}][{{ d.missing }}][{{ d["missing"] }}][{{ l[10] }}][{{ none.x }}]', {
    d: {},
    l: [],
  }),
  c(
    'undefined in conditions',
    '{% if missing %}a{% else %}b{% endif %}{% if not missing %}c{% endif %}{{ missing is defined }}{{ missing == none }}',
  ),
  c(
    'chainable undefined',
    '[{{ missing.a.b }}][{{ d.x.y }}][{{ missing["k"] }}]',
    { d: {} },
    { params: { undefined: 'jinja2.ChainableUndefined' } },
  ),
  c('debug undefined', '[{{ missing }}][{{ d.x }}]', { d: {} }, { params: { undefined: 'jinja2.DebugUndefined' } }),
  c(
    'strict undefined defined test',
    '{{ missing is defined }} {{ missing|default("d") }} {{ x }}',
    { x: 1 },
    { params: { undefined: 'jinja2.StrictUndefined' } },
  ),
  c('undefined loop attributes', '{% for x in [1] %}[{{ loop.previtem }}][{{ loop.nextitem }}]{% endfor %}'),
  c('undefined from failed lookup in filters', "{{ d.x|default('dflt') }} {{ (d.x or 'or') }} {{ d.x is none }}", {
    d: {},
  }),
];

const globalsCases: Case[] = [
  c(
    'range forms',
    '{{ range(5)|list }} {{ range(2, 5)|list }} {{ range(0, 10, 3)|list }} {{ range(5, 0, -2)|list }} {{ range(0)|list }}',
  ),
  c('dict global', "{{ dict(a=1, b=2) }} {{ dict([('x', 1)]) }} {{ dict({'k': 'v'}, z=0) }} {{ dict() }}"),
  c(
    'cycler',
    '{% set c = cycler("a", "b") %}{{ c.next() }}{{ c.next() }}{{ c.next() }}{{ c.current }}{% do c.reset() %}{{ c.next() }}',
    {},
    { params: { extensions: ['jinja2.ext.do'] } },
  ),
  c(
    'joiner',
    '{% set j = joiner(" | ") %}{% for x in [1, 2, 3] %}{{ j() }}{{ x }}{% endfor %} {% set k = joiner() %}{{ k() }}{{ k() }}{{ k() }}',
  ),
  c('globals can be shadowed by context', '{{ range }}', { range: 'ctx' }),
];

const inclusion: Case[] = [
  c(
    'include with context',
    '{% for i in items %}{% set n = loop.index %}{% include "item.j2" %}{% endfor %}',
    { items: ['a', 'b'] },
    { templates: { 'item.j2': '<{{ i }}:{{ n }}:{{ loop.index }}>' } },
  ),
  c(
    'include sees loop only if the loop uses it',
    '{% for i in items %}{% include "item.j2" %}{% endfor %}',
    { items: ['a'] },
    { templates: { 'item.j2': '<{{ i }}:{{ loop is defined }}>' } },
  ),
  c(
    'include ignore missing',
    'a{% include "nope.j2" ignore missing %}b{% include ["nope.j2", "yes.j2"] %}',
    {},
    { templates: { 'yes.j2': 'Y' } },
  ),
  c(
    'include without context',
    '{% set x = 1 %}{% include "x.j2" without context %}|{% include "x.j2" %}',
    { y: 2 },
    { templates: { 'x.j2': '{{ x }}{{ y }}' } },
  ),
  c(
    'include does not leak sets',
    '{% include "set.j2" %}[{{ v }}]',
    {},
    { templates: { 'set.j2': '{% set v = 1 %}({{ v }})' } },
  ),
  c(
    'import macros',
    "{% import 'macros.j2' as m %}{{ m.iface('e1') }}{{ m.VERSION }}{{ m._private }}",
    {},
    {
      templates: {
        'macros.j2': '{% set VERSION = 2 %}{% set _private = 1 %}{% macro iface(n) %}interface {{ n }}\n{% endmacro %}',
      },
    },
  ),
  c(
    'from import',
    "{% from 'macros.j2' import iface, vlan as v %}{{ iface('e1') }}{{ v(10) }}",
    {},
    {
      templates: {
        'macros.j2': '{% macro iface(n) %}int {{ n }};{% endmacro %}{% macro vlan(id) %}vlan {{ id }};{% endmacro %}',
      },
    },
  ),
  c(
    'import without context',
    "{% set secret = 's' %}{% import 'm.j2' as m %}[{{ m.show() }}]{% import 'm.j2' as mc with context %}[{{ mc.show() }}]",
    {},
    {
      templates: { 'm.j2': '{% macro show() %}{{ secret }}{% endmacro %}' },
    },
  ),
  c(
    'extends and blocks',
    "{% extends 'base.j2' %}{% block body %}child {{ super() }}{% endblock %}ignored",
    { x: 1 },
    {
      templates: { 'base.j2': 'head {% block body %}base {{ x }}{% endblock %} tail {% block other %}o{% endblock %}' },
    },
  ),
  c(
    'extends two levels',
    "{% extends 'mid.j2' %}{% block a %}C[{{ super() }}]{% endblock %}",
    {},
    {
      templates: {
        'mid.j2': "{% extends 'base.j2' %}{% block a %}M[{{ super() }}]{% endblock %}",
        'base.j2': '<{% block a %}B{% endblock %}>',
      },
    },
  ),
  c('self block reference', '{% block title %}T{% endblock %}|{{ self.title() }}'),
  c('module printed', "{% import 'm.j2' as m %}[{{ m }}]", {}, { templates: { 'm.j2': 'body {{ 1 + 1 }}' } }),
  c(
    'module exports',
    "{% import 'm' as m %}{{ m.a }}|{{ m.b }}|{{ m.c }}|{{ m.missing }}",
    {},
    {
      templates: {
        m: '{% set a = 1 %}{% if true %}{% set b = 2 %}{% endif %}{% for i in [1] %}{% set c = 3 %}{% endfor %}',
      },
    },
  ),
  c(
    'from import missing name is undefined',
    "{% from 'm' import a, nope %}{{ a }}|{{ nope }}|",
    {},
    { templates: { m: '{% set a = 1 %}' } },
  ),
  c(
    'imported once per render',
    "{% import 'm' as m %}{% import 'm' as n %}{{ m.f() }}{{ n.f() }}",
    {},
    {
      templates: { m: '{% set ns = namespace(c=0) %}{% macro f() %}{% set ns.c = ns.c + 1 %}{{ ns.c }}{% endmacro %}' },
    },
  ),
  c(
    'import with context sees context',
    "{% import 'm' as m with context %}{{ m.v }}|{% import 'm' as n %}{{ n.v }}",
    { x: 5 },
    { templates: { m: '{% set v = x %}' } },
  ),
  c(
    'extends output outside blocks',
    "before {% extends 'b' %} after {% block a %}A{% endblock %}{% set x = 5 %}",
    {},
    {
      templates: { b: '<{% block a %}{% endblock %}>{{ x }}' },
    },
  ),
  c(
    'extends with include and filter after',
    "{% extends 'b' %}{% include 'i' %}{% filter upper %}x{% endfilter %}|{% macro m() %}M{{ caller() }}{% endmacro %}{% call m() %}c{% endcall %}",
    {},
    {
      templates: { b: 'B', i: 'I' },
    },
  ),
  c(
    'conditional extends',
    '{% if base %}{% extends base %}{% endif %}{% block a %}own{% endblock %}',
    { base: 'b' },
    { templates: { b: '[{% block a %}{% endblock %}]' } },
  ),
  c(
    'scoped block',
    "{% extends 'b' %}{% block a %}{{ i }}{% endblock %}",
    {},
    { templates: { b: '{% for i in [7, 8] %}{% block a scoped %}{% endblock %}{% endfor %}' } },
  ),
  c(
    'unscoped block does not see loop variable',
    "{% extends 'b' %}{% block a %}[{{ i }}]{% endblock %}",
    {},
    { templates: { b: '{% for i in [7] %}{% block a %}{% endblock %}{% endfor %}' } },
  ),
  c(
    'nested blocks and self',
    "{% extends 'b' %}{% block inner %}I{% endblock %}",
    {},
    { templates: { b: '{% block outer %}O[{% block inner %}i{% endblock %}]{% endblock %}|{{ self.inner() }}' } },
  ),
  c(
    'required block overridden',
    "{% extends 'b' %}{% block a %}ok{% endblock %}",
    {},
    { templates: { b: '{% block a required %}{% endblock %}' } },
  ),
  c('include from included template', "{% include 'i' %}", {}, { templates: { i: "{% include 'j' %}+i", j: 'j' } }),
  c(
    'included template extends',
    "{% include 'i' %}|after",
    {},
    { templates: { i: "{% extends 'b' %}x{% block a %}child{% endblock %}", b: '[{% block a %}{% endblock %}]' } },
  ),
];

const netbox: Case[] = [
  c(
    'eos interfaces',
    `hostname {{ device.name }}
!
{% for iface in device.interfaces %}
interface {{ iface.name }}
{% if iface.description %}
   description {{ iface.description }}
{% endif %}
{% if iface.mtu %}
   mtu {{ iface.mtu }}
{% endif %}
{% if iface.mode == 'access' %}
   switchport access vlan {{ iface.untagged_vlan.vid }}
{% elif iface.mode == 'tagged' %}
   switchport mode trunk
   switchport trunk allowed vlan {{ iface.tagged_vlans|map(attribute='vid')|join(',') }}
{% endif %}
{% for ip in iface.ip_addresses %}
   ip address {{ ip.address }}
{% endfor %}
{% if not iface.enabled %}
   shutdown
{% endif %}
!
{% endfor %}
`,
    { device },
    { params: { trim_blocks: true, lstrip_blocks: true } },
  ),
  c(
    'ntp dns syslog',
    `{% for server in ntp_servers %}
ntp server {{ server }}{% if loop.first %} prefer{% endif %}

{% endfor %}
ip name-server {{ dns.servers|join(' ') }}
ip domain-name {{ dns.domain }}
logging host {{ syslog.host }} {{ syslog.port|default(514) }}
logging trap {{ syslog.level|default('warnings') }}
snmp-server community {{ snmp.community }} ro
snmp-server location {{ snmp.location }}
snmp-server contact {{ snmp.contact }}
`,
    configContext,
    { params: { trim_blocks: true } },
  ),
  c(
    'bgp neighbors grouped',
    `router bgp {{ bgp.asn }}
   router-id {{ bgp.router_id }}
{% for group, peers in bgp.neighbors|groupby('group') %}
   neighbor {{ group }} peer group
{% for peer in peers|sort(attribute='ip') %}
   neighbor {{ peer.ip }} peer group {{ group }}
   neighbor {{ peer.ip }} remote-as {{ peer.remote_as }}
   neighbor {{ peer.ip }} description {{ peer.description }}{{ ' (iBGP)' if peer.remote_as == bgp.asn else '' }}
{% endfor %}
{% endfor %}
`,
    configContext,
    { params: { trim_blocks: true, lstrip_blocks: true } },
  ),
  c(
    'vlans with join and namespace',
    `{%- set ns = namespace(users=[], total=0) -%}
{%- for vlan in vlans -%}
  {%- set ns.total = ns.total + 1 -%}
  {%- if vlan.vid < 50 %}{% set ns.users = ns.users + [vlan.vid] %}{% endif -%}
{%- endfor -%}
vlan {{ vlans|map(attribute='vid')|join(',') }}
{% for vlan in vlans %}
vlan {{ vlan.vid }}
   name {{ vlan.name|upper }}
{% endfor %}
! {{ ns.total }} vlans, user vlans: {{ ns.users|join(' ') }}
`,
    configContext,
  ),
  c(
    'macro rendered blocks with indent',
    `{% macro acl(name, rules) -%}
ip access-list {{ name }}
{% for r in rules %}
  {{ loop.index * 10 }} {{ r }}
{% endfor %}
{%- endmacro %}
management
  {{ acl('MGMT', ['permit ip 10.0.0.0/8 any', 'deny ip any any'])|indent(2) }}
end
`,
    {},
    { params: { trim_blocks: true } },
  ),
  c(
    'config context as json and yaml-ish',
    `{{ features|tojson }}
{% for k, v in features|dictsort %}
{{ k }}: {{ v|lower }}
{% endfor %}
mtu: {{ mtu }} ratio: {{ (ratio * 100)|round|int }}% half: {{ mtu / 2 }} {{ mtu // 2 }}
`,
    configContext,
    { params: { trim_blocks: true } },
  ),
  c(
    'device facts',
    `{{ device.name|upper }} ({{ device.role.name }}) @ {{ device.site.slug }}{% if device.site.region %}/{{ device.site.region.slug }}{% endif %}
platform={{ device.platform.slug|default('unknown', true) }} serial={{ device.serial or 'n/a' }} asn={{ device.custom_fields.asn }} ru={{ device.custom_fields.rack_unit }}
tags={{ device.tags|map(attribute='slug')|sort|join(',') }} has_evpn={{ 'evpn' in device.tags|map(attribute='slug') }}
loopback={{ (device.interfaces|selectattr('name', 'equalto', 'Loopback0')|first).ip_addresses[0].address.split('/')[0] }}
mgmt={{ device.primary_ip4.address|replace('/32', '') }}
`,
    { device },
  ),
  c(
    'interface counters with loop filters',
    `{% set up = device.interfaces|selectattr('enabled')|list %}
{% set down = device.interfaces|rejectattr('enabled')|list %}
up={{ up|length }} down={{ down|length }} routed={{ device.interfaces|selectattr('ip_addresses')|list|length }}
{% for i in device.interfaces if i.mtu and i.mtu > 1500 -%}
jumbo {{ i.name }}{{ ',' if not loop.last }}
{% endfor %}`,
    { device },
  ),
  c(
    'juniper style nested blocks',
    `interfaces {
{% for iface in device.interfaces if iface.ip_addresses %}
    {{ iface.name|lower|replace('ethernet', 'et-0/0/') }} {
        unit 0 {
            family inet {
{% for ip in iface.ip_addresses %}
                address {{ ip.address }};
{% endfor %}
            }
        }
    }
{% endfor %}
}
`,
    { device },
    { params: { trim_blocks: true, lstrip_blocks: true } },
  ),
  c(
    'prefix list from dict of lists',
    `{% for name, prefixes in prefix_lists.items() %}
ip prefix-list {{ name }}
{% for p in prefixes %}
   seq {{ loop.index * 5 }} permit {{ p }}
{% endfor %}
{% endfor %}`,
    { prefix_lists: { LOOPBACKS: ['10.0.0.0/24 eq 32'], 'P2P-LINKS': ['10.1.0.0/16 le 31', '10.2.0.0/16 le 31'] } },
    { params: { trim_blocks: true, lstrip_blocks: true } },
  ),
];

const errors: Case[] = [
  c('unknown filter under if is checked when run', '{% if false %}{{ x|nope }}{% endif %}{{ 1 if true else 2|nope }}'),
  err('syntax error unclosed tag', '{% if x %}'),
  err('syntax error bad expression', '{{ 1 + }}'),
  err('unknown tag', '{% frobnicate %}'),
  err('unknown filter', '{{ x|nope }}'),
  err('unknown filter under if, run', '{% if true %}{{ x|nope }}{% endif %}'),
  err('unknown filter in a loop under if', '{% if false %}{% for i in x %}{{ i|nope }}{% endfor %}{% endif %}'),
  err('unknown test', '{{ x is nope }}'),
  err('undefined attribute access', '{{ missing.attr }}'),
  err('undefined call', '{{ missing() }}'),
  err('unknown str method', "{{ 'abc'.nope() }}"),
  err('unknown dict method', '{{ d.nope() }}', { d: {} }),
  err('division by zero', '{{ 1 / 0 }}'),
  err('floor division by zero', '{{ 1 // 0 }}'),
  err('modulo by zero', '{{ 1 % 0 }}'),
  err('type error add', "{{ 1 + 'a' }}"),
  err('type error compare', "{{ 1 < 'a' }}"),
  err('concat list and tuple', '{{ [1] + (2,) }}'),
  err('strict undefined print', '{{ missing }}', {}, { params: { undefined: 'jinja2.StrictUndefined' } }),
  err(
    'strict undefined in if',
    '{% if missing %}x{% endif %}',
    {},
    { params: { undefined: 'jinja2.StrictUndefined' } },
  ),
  err('strict undefined attribute', '{{ d.missing }}', { d: {} }, { params: { undefined: 'jinja2.StrictUndefined' } }),
  err('range too big', '{{ range(100001)|length }}'),
  err('macro too many arguments', '{% macro m(a) %}{% endmacro %}{{ m(1, 2) }}'),
  err('macro unknown keyword', '{% macro m(a) %}{% endmacro %}{{ m(b=1) }}'),
  err('set attribute on non-namespace', '{% set d = {} %}{% set d.x = 1 %}'),
  err('include missing template', '{% include "missing.j2" %}'),
  err('break without extension', '{% for x in [1] %}{% break %}{% endfor %}'),
  err('unpack mismatch', '{% for a, b in [[1, 2, 3]] %}{% endfor %}'),
  err('int of list', '{{ [1] + 1 }}'),
  err('length of generator', "{{ items|map('upper')|length }}", { items: ['a'] }),
  err('last of generator', "{{ items|map('upper')|last }}", { items: ['a'] }),
  err('sort mixed types', "{{ [1, 'a']|sort }}"),
  err('dunder attribute use', "{{ ''.__class__.__mro__ }}"),
  err('unhashable dict key', '{{ {[1]: 2} }}'),
  err('json of undefined', '{{ missing|tojson }}'),
  err('recursion limit', '{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}'),
  err('wrong unicode escape', "{{ '\\x4' }}"),
  err('block defined twice', '{% block a %}{% endblock %}{% block a %}{% endblock %}'),
  err('mismatched end tag', '{% for x in y %}{% endif %}'),
  err('extends missing', '{% extends "nope.j2" %}'),
  err('format mixing auto and manual', "{{ '{} {0}'.format(1) }}"),
  err('percent format missing args', "{{ '%s %s' % ('a',) }}"),
  err('indent of undefined', '{{ missing|indent }}'),
  err('round of string', "{{ 'x'|round }}"),
  err('extends in a macro', "{% macro m() %}{% extends 'b' %}{% endmacro %}", {}, { templates: { b: 'B' } }),
  err('extends in a loop', "{% for i in [1] %}{% extends 'b' %}{% endfor %}", {}, { templates: { b: 'B' } }),
  err('extended twice', "{% extends 'b' %}{% extends 'c' %}", {}, { templates: { b: 'B', c: 'C' } }),
  err('required block missing', "{% extends 'b' %}", {}, { templates: { b: '{% block a required %}{% endblock %}' } }),
  err('super without parent', '{% block a %}{{ super() }}{% endblock %}'),
  err('include recursion', "{% include 'i' %}", {}, { templates: { i: "{% include 'i' %}" } }),
  err('from import private name', "{% from 'm' import _a %}", {}, { templates: { m: '{% set _a = 1 %}' } }),
  err('unbalanced brace', '{{ (1 }}'),
  err('call block on a macro without caller', '{% macro m() %}M{% endmacro %}{% call m() %}c{% endcall %}'),
  err('unterminated string', "{{ 'abc }}"),
  err('unterminated comment', '{# abc'),
  err('unterminated raw', '{% raw %}abc'),
  err('macro non-default after default', '{% macro m(a=1, b) %}{% endmacro %}'),
  err('assign to constant', '{% set true = 1 %}'),
  err('none attribute call', '{{ none.x() }}'),
  err('string minus', "{{ 'a' - 'b' }}"),
  err('slice step zero', '{{ [1, 2][::0]|list }}'),
  err('map without filter', '{{ [1]|map|list }}'),
  err('selectattr without attribute', '{{ [1]|selectattr|list }}'),
  err('dictsort by nonsense', "{{ {'a': 1}|dictsort(by='x') }}"),
  err('cycle without items', '{% for i in [1] %}{{ loop.cycle() }}{% endfor %}'),
  err('loop call without recursive', '{% for i in [1] %}{{ loop([]) }}{% endfor %}'),
  err('range step zero', '{{ range(1, 5, 0) }}'),
  err('cycler without items', '{{ cycler() }}'),
  err('concat binds tighter than plus', '{{ 1 ~ 2 + 3 }}'),
];

export const CASES: Case[] = [
  ...printing,
  ...operators,
  ...loops,
  ...assignments,
  ...macros,
  ...whitespace,
  ...tests,
  ...filters,
  ...methods,
  ...undefinedCases,
  ...globalsCases,
  ...inclusion,
  ...netbox,
  ...errors,
];
