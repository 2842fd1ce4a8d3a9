/**
 * Differential test: every corpus case is rendered by real Jinja2 (jinja-reference.py) and by renderTemplate, and
 * the outputs must be byte-identical (error cases must fail on both sides). The generated matrix runs one test per
 * group, listing its disagreements.
 *
 * Python: `python3` from PATH, else /usr/bin/python3, whichever imports jinja2 (JINJA_PYTHON overrides, to check
 * another Jinja2 version). Without Jinja2 the suite fails: install it with `apt-get install python3-jinja2`.
 */
import { describe, beforeAll, expect, it } from 'vitest';
import { renderTemplate, TemplateError } from '../src/index.js';
import { CASES, type Case } from './corpus.js';
import { MATRIX } from './matrix.js';
import { reference, type Result } from './reference.js';

type Input = Omit<Case, 'name'>;

function same(jinja: Result, actual: Result): boolean {
  return jinja.error !== undefined ? actual.error !== undefined : actual.output === jinja.output;
}

function ours(c: Input): Result {
  try {
    const templates = c.templates ?? {};
    const load = (name: string) => (Object.hasOwn(templates, name) ? templates[name] : undefined);
    return { output: renderTemplate(c.template, c.context, { params: c.params, load }) };
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return { error: e.message };
  }
}

describe('renderTemplate matches Jinja2', () => {
  let expected: Result[] = [];
  let matrix: Result[] = [];

  beforeAll(() => {
    const ref = reference([...CASES, ...MATRIX]);
    expected = ref.results.slice(0, CASES.length);
    matrix = ref.results.slice(CASES.length);
    console.info(`Jinja2 ${ref.version}: ${CASES.length} cases, ${MATRIX.length} generated`);
  });

  it('has unique case names', () => {
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  for (const [i, c] of CASES.entries()) {
    it(c.name, () => {
      const jinja = expected[i];
      const actual = ours(c);
      if (c.expectError) {
        expect(jinja.error, `Jinja2 rendered ${JSON.stringify(jinja.output)}`).toBeDefined();
        expect(actual.error, `renderTemplate rendered ${JSON.stringify(actual.output)}`).toBeDefined();
        expect(actual.error).not.toMatch(/Cannot read propert|is not a function|undefined \(reading/);
        return;
      }
      expect(jinja.error, 'Jinja2 failed').toBeUndefined();
      expect(actual.error, `renderTemplate failed; Jinja2 rendered ${JSON.stringify(jinja.output)}`).toBeUndefined();
      expect(actual.output).toBe(jinja.output);
    });
  }

  for (const group of new Set(MATRIX.map((c) => c.group))) {
    it(`matrix: ${group}`, () => {
      const disagreements = MATRIX.flatMap((c, i) => {
        if (c.group !== group) return [];
        const actual = ours(c);
        return same(matrix[i], actual)
          ? []
          : [`${c.template}\n  Jinja2: ${JSON.stringify(matrix[i])}\n  ours:   ${JSON.stringify(actual)}`];
      });
      expect(disagreements.join('\n')).toBe('');
    });
  }
});
