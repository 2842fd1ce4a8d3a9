import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childrenOf } from '../chaos/harness.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';

let t: TestServer;
const TEMPLATES = '/api/extras/config-templates/';
const TIMEOUT = 1500;
let n = 0;

beforeAll(async () => {
  t = await startServer({ settings: { TEMPLATE_TIMEOUT: TIMEOUT, TEMPLATE_MAX_OUTPUT: 100_000, TEMPLATE_WORKERS: 2, TEMPLATE_MEMORY_MB: 64 } });
});
afterAll(async () => {
  await t?.close();
});

async function render(code: string, context: Record<string, unknown> = {}) {
  const created = await t.post(TEMPLATES, { name: `sandbox ${n++}`, template_code: code });
  return t.post(`${TEMPLATES}${created.body.id}/render/`, context);
}

/** The known ways out of a nunjucks template into JavaScript: each must fail, or print nothing of the process. */
const ESCAPES = [
  '{{ range.constructor("return process")() }}',
  '{{ cycler.constructor("return process")().env }}',
  '{{ joiner.constructor.constructor("return process")() }}',
  '{{ "".constructor.constructor("return process")() }}',
  '{{ [].constructor.constructor("return process")() }}',
  '{{ {}.__proto__.constructor.constructor("return process")() }}',
  '{{ dcim.Site.constructor.constructor("return process")() }}',
  '{{ dcim.Site.objects.constructor.constructor("return process")() }}',
  '{{ (range|attr("constructor"))("return process")() }}',
  '{% set f = range.constructor %}{{ f("return process")() }}',
  '{{ lipsum.__proto__.constructor("return process")() }}',
  '{{ namespace.constructor("return process")() }}',
  '{% macro m() %}{{ caller.constructor("return process")() }}{% endmacro %}{% call m() %}x{% endcall %}',
  '{% for x in [1] %}{{ loop.constructor.constructor("return process")() }}{% endfor %}',
  '{% set ns = namespace() %}{% set ns.__proto__ = {"polluted": 1} %}{{ ns.polluted }}',
  '{{ ["constructor"] | map("attr", "x") | list }}{{ [range] | map(attribute="constructor") | first }}',
  '{{ ctx }}{{ runtime }}{{ env }}{{ frame }}{{ this }}{{ process }}{{ require }}{{ globalThis }}',
  '{{ device.__proto__ }}{{ "".toString.call }}{{ [].__lookupGetter__ }}',
];

describe('the template sandbox', () => {
  it('keeps templates away from JavaScript, the process and the file system', async () => {
    for (const code of ESCAPES) {
      const res = await render(code, { device: { name: 'x' } });
      expect(res.status, code).toBeLessThan(500);
      // A refusal names the attribute (`'function object' has no attribute 'constructor'`); nothing of the process
      // leaks either way: no function source, no environment, no paths, no stack, no JavaScript object dumps.
      const shown = res.status === 200 ? res.body.content : res.body.detail;
      expect(shown, code).not.toMatch(/native code|\[object |PATH=|\/work\/|node:|\n\s+at |v\d+\.\d+\.\d+/);
      if (res.status === 400) expect(res.body.detail, code).toMatch(/has no attribute|is undefined|unsafe|not callable|cannot/i);
    }
    // The prototype was not polluted by the attempt.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const include = await render("{% include '../../../../etc/passwd' %}");
    expect(include.status).toBe(400);
    expect(include.text).not.toContain('root:');
  });

  it('ends an endless loop with a 400 while other requests are served', async () => {
    const started = Date.now();
    let ended = false;
    const loops = Promise.all([
      render('{% for i in range(100000) %}{% for j in range(100000) %}{% for k in range(100000) %}{% endfor %}{% endfor %}{% endfor %}'),
      render('{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}'),
    ]).finally(() => (ended = true));
    // While both workers spin, the API answers: the renders are not on the event loop.
    expect((await t.get('/api/dcim/sites/')).status).toBe(200);
    expect(ended).toBe(false);
    for (let i = 0; i < 4; i++) expect((await t.get('/api/dcim/sites/')).status).toBe(200);
    const [loop, recursion] = await loops;
    expect(loop.status).toBe(400);
    expect(loop.body.detail).toContain(`longer than ${TIMEOUT} ms`);
    expect(recursion.status).toBe(400);
    expect(Date.now() - started).toBeLessThan(TIMEOUT * 6);
    // The pool replaced the ended workers.
    expect((await render('{{ 1 + 1 }}')).body.content).toBe('2');
  });

  it('limits the output and the memory of a render', async () => {
    const big = await render('{% for i in range(100000) %}{{ "x" * 100 }}{% endfor %}');
    expect(big.status).toBe(400);
    expect(big.body.detail).toMatch(/Output exceeds 100000 characters/);
    const memory = await render('{% set ns = namespace(l=[]) %}{% for i in range(100000) %}{% for j in range(100000) %}{% set _ = ns.l.append("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" ~ i ~ j) %}{% endfor %}{% endfor %}');
    expect(memory.status).toBe(400);
    expect((await render('ok')).body.content).toBe('ok');
  });

  it('ends a render whose process runs out of memory outside any count (its context), with a 400; the server goes on', async () => {
    // 400,000 objects of context: under the body's bounds, and more than a 32 MiB heap holds once parsed in the
    // template process, before the engine (and its allocation meter) runs. V8 aborts that process, not this one.
    const small = await startServer({ settings: { TEMPLATE_MEMORY_MB: 32 } });
    const context = { items: Array.from({ length: 400_000 }, (_, i) => ({ name: `item-${i}` })) };
    const created = await small.post(TEMPLATES, { name: 'exhausted', template_code: '{{ items|length }}' });
    const exhausted = await small.post(`${TEMPLATES}${created.body.id}/render/`, context);
    await small.close();
    expect(exhausted.status).toBe(400);
    expect(exhausted.body.detail).toBe('An error occurred while rendering the template: The template used more memory than a render may use.');
    expect((await render('still {{ x }}', { x: 'here' })).body.content).toBe('still here');
  });

  it('ends a render whose process is killed under it (SIGABRT, as V8 aborts), with a 400; the server goes on', async () => {
    const running = render('{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}');
    let renderer: number | undefined;
    await until(() => (renderer = childrenOf(process.pid).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('worker/main.ts') && busy(pid))) !== undefined, 5000, 'a busy template process');
    process.kill(renderer!, 'SIGABRT');
    const ended = await running;
    expect(ended.status).toBe(400);
    expect(ended.body.detail).toBe('An error occurred while rendering the template: The template could not be rendered (its renderer ended).');
    expect((await render('ok')).body.content).toBe('ok');
    // A process that ended while idle is not given the next render.
    const idle = childrenOf(process.pid).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('worker/main.ts'));
    expect(idle.length).toBeGreaterThan(0);
    for (const pid of idle) process.kill(pid, 'SIGKILL');
    // Reaped, not just dead: the server has seen them end (a zombie is dead but not yet reported to it).
    await until(() => idle.every((pid) => !existsSync(`/proc/${pid}`)), 5000, 'the idle processes reaped');
    expect((await render('again')).body.content).toBe('again');
  });
});

/** Whether process `pid` is running on a CPU now (state R), as a template process rendering is. */
function busy(pid: number): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('R');
}
