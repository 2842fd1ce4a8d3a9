import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsMarkdown } from '../../kernel/config/doc.js';

const readme = () => readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('documents exactly the settings the schema has', () => {
    const table = /<!-- settings:start -->\n([\s\S]*?)<!-- settings:end -->/.exec(readme())?.[1];
    expect(table).toBe(settingsMarkdown());
  });
});
