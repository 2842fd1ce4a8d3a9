import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { CASES } from '../../packages/jinja/test/corpus.js';
import { reference, type Result } from '../../packages/jinja/test/reference.js';

let t: TestServer;
let expected: Result[] = [];
const TEMPLATES = '/api/extras/config-templates/';
// The API trims text fields, template code included, as NetBox's serializers do: the corpus as a client stores it.
const STORED = CASES.map((c) => ({ ...c, template: c.template.trim() })).filter((c) => c.template !== '');

beforeAll(async () => {
  t = await startServer();
  expected = reference(STORED).results;
});
afterAll(async () => {
  await t?.close();
});

/**
 * The differential corpus again, end to end: each case is a config template (with its environment parameters, the
 * templates it includes created by name) rendered by `POST .../render/` with its context, on the worker threads, and
 * must give Jinja2's exact text, or a 400 where Jinja2 fails.
 */
describe('config templates render as Jinja2 does, over HTTP', () => {
  it('gives every case of the corpus Jinja2’s output', async () => {
    const disagreements: string[] = [];
    for (const [i, c] of STORED.entries()) {
      const made: number[] = [];
      for (const [name, code] of Object.entries(c.templates ?? {})) made.push((await t.post(TEMPLATES, { name, template_code: code })).body.id);
      const { body: template } = await t.post(TEMPLATES, { name: `case ${i}`, template_code: c.template, environment_params: c.params ?? {} });
      made.push(template.id);
      const res = await t.post(`${TEMPLATES}${template.id}/render/`, c.context);
      const jinja = expected[i];
      const agree = jinja.error !== undefined ? res.status === 400 : res.status === 200 && res.body.content === jinja.output;
      if (!agree) disagreements.push(`${c.name}: Jinja2 ${JSON.stringify(jinja)}, Patchbay ${res.status} ${res.text.slice(0, 300)}`);
      await t.request('DELETE', TEMPLATES, { body: made.map((id) => ({ id })) });
    }
    expect(disagreements).toEqual([]);
    expect(STORED.length).toBeGreaterThan(100);
  }, 120_000);
});
