import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsMarkdown } from '../../kernel/config/doc.js';
import { KNOWN_DIFFERENCES } from '../../kernel/templates/jinja/index.js';

const readme = () => readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('documents exactly the settings the schema has', () => {
    const table = /<!-- settings:start -->\n([\s\S]*?)<!-- settings:end -->/.exec(readme())?.[1];
    expect(table).toBe(settingsMarkdown());
  });

  it('lists exactly where the template engine differs from Jinja2', () => {
    const list = /<!-- jinja-differences:start -->\n([\s\S]*?)<!-- jinja-differences:end -->/.exec(readme())?.[1];
    expect(list).toBe(KNOWN_DIFFERENCES.map((d) => `- ${d}\n`).join(''));
  });
});
