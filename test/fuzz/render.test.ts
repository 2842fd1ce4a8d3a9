import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { HOSTILE_JSON, HOSTILE_TEXT } from './generate.js';
import { Fuzz, json, LEAKS, type Answer, type Sent } from './harness.js';

/**
 * A seeded fuzz of the template renders: config templates' `render/`, devices' and virtual machines'
 * `render-config/`, export templates (`?export=`), and template creation, with hostile template code (endless
 * loops, huge ranges and outputs, recursion, memory bombs, ways into JavaScript, syntax errors) and hostile contexts.
 * Small TEMPLATE_TIMEOUT, TEMPLATE_MAX_OUTPUT and TEMPLATE_MEMORY_MB keep it fast. A refusal is a 4xx with a JSON
 * detail; never a 5xx, a hang or a leak of the process; and after every wave a plain render still works.
 */

const TIMEOUT = 800;
const MAX_OUTPUT = 10_000;
/**
 * Beyond SQL and stacks, nothing of the process (function sources, environment, paths), no password hash (the API
 * never shows one) and no token key (ALLOW_TOKEN_RETRIEVAL is off here; the admin's is added once known).
 */
const leaks = [...LEAKS, /native code/, /PATH=/, /node:internal/, new RegExp(process.cwd()), /scrypt\$\d+\$/];
const f = new Fuzz('test/fuzz/render.test.ts', leaks);
const { r } = f;
const TEMPLATES = '/api/extras/config-templates/';
const EXPORTS = '/api/extras/export-templates/';

/** Template code; `refused`: the render must end with a 400 saying the template failed. */
interface Code {
  code: string;
  refused?: boolean;
}

const CODES: Code[] = [
  // Endless or huge loops, recursion.
  { code: '{% for i in range(100000) %}{% for j in range(100000) %}{% for k in range(100000) %}{% endfor %}{% endfor %}{% endfor %}', refused: true },
  { code: '{% for i in range(10**9) %}{% endfor %}', refused: true },
  { code: '{% for i in range(99999999999999999999) %}{{ i }}{% endfor %}', refused: true },
  { code: '{% set ns = namespace(i=0) %}{% for x in range(100000) %}{% for y in range(100000) %}{% set ns.i = ns.i + 1 %}{% endfor %}{% endfor %}{{ ns.i }}', refused: true },
  { code: '{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}', refused: true },
  { code: '{% macro a() %}{{ b() }}{% endmacro %}{% macro b() %}{{ a() }}{% endmacro %}{{ a() }}', refused: true },
  { code: '{% for x in [[1]] recursive %}{{ loop([x]) }}{% endfor %}', refused: true },
  { code: "{% include 'SELF' %}", refused: true },
  { code: "{% import 'SELF' as me %}{{ me }}" },
  // Huge output and memory.
  { code: "{{ 'x' * 10**9 }}", refused: true },
  { code: "{{ 'x' * 1000000000 }}", refused: true },
  { code: "{{ ['x'] * 10**8 }}", refused: true },
  { code: '{% for i in range(100000) %}{{ "x" * 100 }}{% endfor %}', refused: true },
  { code: "{{ 'x' | center(10**9) }}", refused: true },
  { code: '{{ "%*d" | format(10**9, 1) }}', refused: true },
  { code: "{{ 'x' | indent(10**8) }}" },
  { code: '{{ range(100000) | list }}', refused: true },
  { code: '{% set ns = namespace(l=[]) %}{% for i in range(100000) %}{% for j in range(100000) %}{% set _ = ns.l.append("xxxxxxxxxxxxxxxxxxxxxxxx" ~ i ~ j) %}{% endfor %}{% endfor %}', refused: true },
  { code: "{% set x = 'x' * 1000000 %}{% set y = [x] * 1000 %}{{ y | length }}" },
  { code: '{{ 10**10**10 }}{{ 9**9**9 }}{{ (2**64) * (2**64) }}{{ 1e308 * 10 }}' },
  { code: '{{ 2**100000 }}' },
  { code: '{{ 1 // 0 }}', refused: true },
  { code: '{{ 1 % 0 }}', refused: true },
  { code: "{{ 'abc'[10**20] }}" },
  { code: '{% set a = [] %}{% set _ = a.append(a) %}{{ a }}{{ a | tojson }}' },
  { code: '{% set d = {} %}{% set _ = d.update({"d": d}) %}{{ d }}{{ d | pprint }}' },
  // Ways into JavaScript, Python or the process.
  { code: '{{ __class__ }}{{ "".__class__.__mro__ }}{{ "".__class__.__mro__[1].__subclasses__() }}' },
  { code: '{{ [].constructor.constructor("return process")().env }}' },
  { code: '{{ range.constructor("return this")() }}{{ cycler.__init__.__globals__ }}{{ lipsum.__globals__ }}' },
  { code: '{{ {}.__proto__ }}{{ {}.__proto__.constructor }}{% set x = {} %}{% set _ = x.update({"__proto__": {"polluted": 1}}) %}{{ {}.polluted }}' },
  { code: '{{ process }}{{ global }}{{ globalThis }}{{ require }}{{ self }}{{ self.__init__ }}{{ config }}{{ request }}' },
  { code: '{{ device.__class__ }}{{ device.constructor }}{{ device._meta }}{{ device.__dict__ }}{{ device.save() }}{{ device.delete() }}' },
  { code: '{{ (range | attr("constructor"))("return process")() }}{{ "x" | attr("__class__") }}' },
  { code: "{{ dcim.Site.objects.raw('select 1') }}{{ dcim.Site.objects.extra(where=['1=1']) }}{{ dcim.Site.objects.all().query }}" },
  { code: '{{ dcim.Site.objects.filter(name__regex="(") | list }}', refused: true },
  { code: '{{ dcim.Site.objects.filter(id=99999999999) | list }}{{ dcim.Site.objects.filter(created__lt="0000-01-01T00:00:00Z") | list }}' },
  { code: '{{ dcim.Site.objects.filter(name="a\\x00b") | list }}{{ dcim.Device.objects.get(pk=-1) }}' },
  { code: '{{ dcim.Site.objects.filter(nope__nope=1).count() }}{{ dcim.Site.objects.order_by("nope") | list }}' },
  { code: '{% for s in dcim.Site.objects.all() %}{% for d in dcim.Device.objects.all() %}{% for i in dcim.Interface.objects.all() %}{{ s.name }}{{ d.name }}{{ i.name }}{% endfor %}{% endfor %}{% endfor %}' },
  { code: "{{ users.User.objects.first().password }}{{ users.User.objects.all() | map(attribute='password') | join }}" },
  { code: "{{ users.Token.objects.first().key }}{{ users.Token.objects.all() | map(attribute='key') | join }}" },
  { code: "{% include '../../../../etc/passwd' %}", refused: true },
  { code: "{% extends 'nowhere' %}", refused: true },
  // Syntax errors and parser depth.
  { code: '{% for %}', refused: true },
  { code: '{{', refused: true },
  { code: '{% if x %}', refused: true },
  { code: '{% endfor %}', refused: true },
  { code: '{% macro m( %}', refused: true },
  { code: '{{ x | }}', refused: true },
  { code: '{# unterminated' },
  { code: '{% raw %}{{ x }}' },
  { code: '{% block a %}{% block a %}{% endblock %}{% endblock %}', refused: true },
  { code: `{{ ${'('.repeat(5000)}1${')'.repeat(5000)} }}`, refused: true },
  { code: `{{ ${'['.repeat(20000)}${']'.repeat(20000)} }}`, refused: true },
  { code: `${'{% if 1 %}'.repeat(2000)}${'{% endif %}'.repeat(2000)}` },
  { code: '{{ x.y.z[0]["a"] }}{{ x() }}{{ none.x }}{{ undefined_thing.attr }}' },
  { code: '{{ range(10) | batch(0) | list }}{{ [1, 2] | slice(0) | list }}{{ "x" | wordwrap(0) }}{{ "x" | truncate(-1) }}{{ [] | random }}' },
  { code: '{{ "%(a)s" % {} }}{{ "{0}{1}".format(1) }}{{ "%s %s" % (1,) }}', refused: true },
  // Text: non-BMP, RTL, escapes of lone surrogates and NUL, the replacement character.
  { code: '{{ "😀\u202e\ufffd" }}{{ "\\udcff" }}{{ "\\x00" }}{{ "\\ud800" | length }}' },
  { code: '{{ data_file }}{{ data_file.data }}{{ data_source }}{{ x | tojson }}{{ x | pprint }}' },
];

/** Contexts: nothing, hostile values under names templates use, deep and huge JSON, and bodies that are not objects. */
function context(): string {
  const deep = (levels: number) => JSON.parse(`${'{"x":'.repeat(levels)}1${'}'.repeat(levels)}`);
  return r.pick<() => string>([
    () => '{}',
    () => json(Object.fromEntries(r.some(['x', 'data_file', 'data_source', 'device', 'dcim', 'range', 'loop', 'self', 'namespace', '__proto__', 'constructor', 'ntp_servers'], 4).map((k) => [k, r.pick(HOSTILE_JSON)]))),
    () => json({ x: deep(r.pick([50, 99, 150])) }),
    () => json({ x: Array.from({ length: r.pick([1000, 100_000]) }, (_, i) => i) }),
    () => json({ x: 'x'.repeat(r.pick([100_000, 5_000_000, 11_000_000])) }),
    () => json({ data_file: { data: r.pick(HOSTILE_JSON), path: '../../etc/passwd' } }),
    () => r.pick(['[1, 2]', '"x"', 'null', '1', '{', '\u0000', '{"x": "\\ud800"}', '{"x": "a\\u0000"}']),
  ])();
}

let t: TestServer;
/** Config and export templates of every code, by index in CODES. */
const configs: number[] = [];
const exports: string[] = [];
let device: number;
let vm: number;
let plain: number;

beforeAll(async () => {
  t = await startServer({ settings: { TEMPLATE_TIMEOUT: TIMEOUT, TEMPLATE_MAX_OUTPUT: MAX_OUTPUT, TEMPLATE_MEMORY_MB: 32, TEMPLATE_WORKERS: 2, ALLOW_TOKEN_RETRIEVAL: false } });
  f.target(t);
  leaks.push(new RegExp(t.admin.token));
  const made = async (path: string, body: unknown) => {
    const res = await t.post(path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text.slice(0, 300)}`);
    return res.body.id as number;
  };
  const site = await made('/api/dcim/sites/', { name: 'Render', slug: 'render' });
  await made('/api/dcim/sites/', { name: 'Other', slug: 'other', status: 'planned' });
  const type = await made('/api/dcim/device-types/', { manufacturer: await made('/api/dcim/manufacturers/', { name: 'V', slug: 'v' }), model: 'M', slug: 'm' });
  const role = await made('/api/dcim/device-roles/', { name: 'R', slug: 'r' });
  device = await made('/api/dcim/devices/', { name: 'render1', site, device_type: type, role, local_context_data: { ntp_servers: ['10.0.0.1'] } });
  await made('/api/dcim/interfaces/', [{ device, name: 'e1', type: '1000base-t' }, { device, name: 'e2', type: '1000base-t' }]);
  const cluster = await made('/api/virtualization/clusters/', { name: 'c', type: await made('/api/virtualization/cluster-types/', { name: 'K', slug: 'k' }) });
  vm = await made('/api/virtualization/virtual-machines/', { name: 'vm1', cluster });
  await made('/api/extras/config-contexts/', { name: 'global', data: { ntp_servers: ['10.0.0.2'], deep: { a: [1, { b: 'c' }] } } });
  plain = await made(TEMPLATES, { name: 'plain', template_code: '{{ 1 + 1 }}' });
  for (const [i, { code }] of CODES.entries()) {
    configs.push(await made(TEMPLATES, { name: `code ${i}`, template_code: code.replace('SELF', `code ${i}`) }));
    await made(EXPORTS, { name: `export ${i}`, object_types: ['dcim.site', 'dcim.device'], template_code: code.replace('SELF', `export ${i}`) });
    exports.push(`export ${i}`);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** The render endpoints' contract: 200, or a 4xx whose JSON object says why (`detail`, `error`, or errors by field). */
function checkAnswer(req: Sent, answer: Answer): void {
  if (answer.status < 400 || answer.status >= 500) return;
  const body = answer.json;
  if (!(body && typeof body === 'object' && Object.keys(body).length)) f.fail(req, `a ${answer.status} without a JSON detail`, answer);
}

const accept = () => r.pick<Record<string, string>>([{}, { Accept: 'text/plain' }, { Accept: 'text/html' }, { Accept: '*/*' }, { Accept: 'application/json; q=0.1, text/plain' }]);
const format = () => r.pick(['', '?format=txt', '?format=json', '?format=nope']);
const detailOf = (answer: Answer) => String((answer.json as { detail?: unknown } | undefined)?.detail ?? '');

/** Sends one request and checks its answer as a render's. */
async function send(req: Sent): Promise<Answer> {
  const answer = await f.send(req);
  checkAnswer(req, answer);
  return answer;
}

/** One render or template write, drawn at random (all draws made before the first request). */
function fuzzRequest(): () => Promise<unknown> {
  const pick = r.int(CODES.length);
  const { refused } = CODES[pick];
  const kind = r.next();
  if (kind < 0.4) {
    const req: Sent = { method: 'POST', path: `${TEMPLATES}${configs[pick]}/render/${format()}`, body: context(), headers: accept() };
    return async () => {
      const answer = await send(req);
      // Whatever the context, a template that must fail never renders.
      if (refused && answer.status === 200) f.fail(req, `template ${pick} rendered`, answer);
    };
  }
  if (kind < 0.6) {
    const [path, id] = r.pick([['/api/dcim/devices/', device], ['/api/virtualization/virtual-machines/', vm]] as const);
    const assign: Sent = { method: 'PATCH', path: `${path}${id}/`, body: json({ config_template: r.chance(0.9) ? configs[pick] : r.pick(HOSTILE_JSON) }) };
    const req: Sent = { method: 'POST', path: `${path}${r.chance(0.9) ? id : r.pick(['0', '99999999999', 'abc'])}/render-config/${format()}`, body: context(), headers: accept() };
    return async () => {
      await send(assign);
      await send(req);
    };
  }
  if (kind < 0.8) {
    const params = new URLSearchParams({ export: r.chance(0.9) ? exports[pick] : r.pick(HOSTILE_TEXT) });
    if (r.chance(0.3)) params.set(r.pick(['name', 'status', 'q', 'id', 'limit', 'created__gte', 'name__regex']), r.pick(HOSTILE_TEXT));
    const req: Sent = { method: 'GET', path: `${r.pick(['/api/dcim/sites/', '/api/dcim/devices/', '/api/tenancy/tenants/'])}?${params}` };
    return () => send(req);
  }
  // Templates written with hostile code, parameters, names, types and headers, then rendered.
  const code = r.chance(0.7) ? r.some(CODES, 3).map((c) => c.code).join(r.pick(['', '\n', ' {{ x }} '])) : r.pick([...HOSTILE_JSON, 'x'.repeat(2_000_000), '\u0000', '{{ "\ud800" }}']);
  const params = r.pick<unknown>([{}, { trim_blocks: true, lstrip_blocks: true }, { undefined: 'jinja2.StrictUndefined' }, { autoescape: true }, { nope: 1 }, [1], 'x', null, { extensions: ['jinja2.ext.do'] }, { block_start_string: '{{' }, { comment_start_string: '{%' }, { variable_start_string: '' }, { keep_trailing_newline: 'yes' }]);
  const extra = r.pick<Record<string, unknown>>([{}, { data_file: r.pick(HOSTILE_JSON) }, { data_source: r.pick(HOSTILE_JSON), data_path: '../../etc/passwd' }, { auto_sync_enabled: r.pick(HOSTILE_JSON) }]);
  const name = `${r.pick(['fuzz', 'Table', '', 'x'.repeat(200), '\u0000', 'a/b', '\ud800', '😀'])} ${r.int(1e9)}`;
  const exported = r.chance(0.4);
  const body = exported
    ? { name, template_code: code, environment_params: params, object_types: r.pick<unknown>([['dcim.site'], [], ['nope.nope'], 'dcim.site', [r.pick(HOSTILE_JSON)]]), mime_type: r.pick(['text/csv', 'text/html\r\nX-Injected: 1', '', 'x'.repeat(100), '\u00e9']), file_name: r.pick(['a"b\r\nc', '../x', '😀', '']), file_extension: r.pick(['csv', 'x\r\ny', '']), as_attachment: r.pick(HOSTILE_JSON), ...extra }
    : { name, template_code: code, environment_params: params, ...extra };
  const create: Sent = { method: r.chance(0.9) ? 'POST' : 'PATCH', path: exported ? EXPORTS : TEMPLATES, body: json(r.chance(0.1) ? [body, body] : body) };
  const context_ = context();
  const headers = accept();
  return async () => {
    const made = await send(create);
    const id = (made.json as { id?: number } | undefined)?.id;
    if (made.status !== 201 || !id) return;
    const render: Sent = exported ? { method: 'GET', path: `/api/dcim/sites/?export=${encodeURIComponent(name)}` } : { method: 'POST', path: `${TEMPLATES}${id}/render/`, body: context_, headers };
    const answer = await send(render);
    // Header injection through the MIME type or the file name: none.
    if (answer.headers?.get('x-injected')) f.fail(render, 'an export template injected a header', answer);
  };
}

/** A plain render and a plain read: both must work after whatever the wave before did. */
async function healthy(after: string): Promise<void> {
  const render = await f.send({ method: 'POST', path: `${TEMPLATES}${plain}/render/`, body: '{}' });
  const content = (render.json as { content?: unknown } | undefined)?.content;
  if (render.status !== 200 || content !== '2') f.fail({ method: 'POST', path: `${TEMPLATES}${plain}/render/` }, `a plain render failed after ${after}`, render);
  const list = await f.send({ method: 'GET', path: '/api/dcim/sites/?limit=1' });
  if (list.status !== 200) f.fail({ method: 'GET', path: '/api/dcim/sites/?limit=1' }, `the API stopped answering after ${after}`, list);
}

describe(`render fuzz (seed ${f.seed})`, () => {
  it('renders, render-configs and exports of hostile templates are 200 or a 4xx with a JSON detail, never a 5xx, a hang or a leak', async () => {
    for (let wave = 0; wave < 30; wave++) {
      const requests = Array.from({ length: 8 }, fuzzRequest);
      await Promise.all(requests.map((send) => send()));
      await healthy(`wave ${wave}`);
    }
    f.verify();
  }, 300_000);

  it('every template that must fail ends with a 400 naming the template error, one after another', async () => {
    // Sequential: each refusal on its own, so that a slow worker start cannot be blamed on a queue.
    for (const [i, { refused }] of CODES.entries()) {
      const req: Sent = { method: 'POST', path: `${TEMPLATES}${configs[i]}/render/`, body: '{}' };
      const answer = await send(req);
      if (refused && (answer.status !== 400 || !/^An error occurred while rendering the template/.test(detailOf(answer)))) f.fail(req, `template ${i} was not refused`, answer);
    }
    await healthy('the corpus');
    f.verify();
  }, 120_000);
});

describe('the smallest TEMPLATE_TIMEOUT', () => {
  it('still renders a plain template, also on a worker started after one was ended', async () => {
    // TEMPLATE_TIMEOUT may be as small as 100 ms: its time is the render's, not the worker thread's start.
    const quick = await startServer({ settings: { TEMPLATE_TIMEOUT: 100 } });
    try {
      const made = async (code: string) => (await quick.post(TEMPLATES, { name: `q ${code}`, template_code: code })).body.id as number;
      const [ok, loop] = [await made('{{ 1 + 1 }}'), await made('{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}')];
      const first = await quick.post(`${TEMPLATES}${ok}/render/`, {});
      expect(first.status, first.text).toBe(200);
      expect((await quick.post(`${TEMPLATES}${loop}/render/`, {})).body.detail).toMatch(/longer than 100 ms/);
      const after = await quick.post(`${TEMPLATES}${ok}/render/`, {});
      expect(after.status, after.text).toBe(200);
      expect(after.body.content).toBe('2');
    } finally {
      await quick.close();
    }
  }, 60_000);
});
