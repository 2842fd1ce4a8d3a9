import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsMarkdown } from '../../kernel/config/doc.js';

const configuration = () => readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
const readme = () => readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the docs', () => {
  it('document exactly the settings the schema has', () => {
    const table = /<!-- settings:start -->\n([\s\S]*?)<!-- settings:end -->/.exec(configuration())?.[1];
    expect(table).toBe(settingsMarkdown());
  });

  it('start with a README of under 250 lines whose links to the docs lead to files and headings that exist', () => {
    expect(readme().split('\n').length).toBeLessThan(250);
    const docs = new URL('../../docs/', import.meta.url);
    const files = ['README.md', ...readdirSync(docs).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const anchor = (title: string) => title.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
    for (const file of files) {
      const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      for (const [, target, hash] of text.matchAll(/\]\(([^)#\s]*\.md)?(?:#([a-z0-9-]+))?\)/g)) {
        if (!target && !hash) continue;
        const linked = target ? new URL(target, new URL(`../../${file}`, import.meta.url)) : new URL(`../../${file}`, import.meta.url);
        expect(existsSync(linked), `${file} → ${target}`).toBe(true);
        if (hash) {
          const headings = [...readFileSync(linked, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1]));
          expect(headings, `${file} → ${target ?? ''}#${hash}`).toContain(hash);
        }
      }
    }
  });
});
