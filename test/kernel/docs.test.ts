import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** The code blocks of a document that name their source file on their first line (`// path/to/file.ts`). */
function excerpts(doc: string): { source: string; lines: string[] }[] {
  return [...doc.matchAll(/```ts\n\/\/ (\S+\.ts)\n([\s\S]*?)```/g)].map((m) => ({ source: m[1], lines: m[2].split('\n') }));
}

describe('docs/plugins.md', () => {
  const doc = read('docs/plugins.md');

  it('teaches through excerpts of tested files', () => {
    expect(excerpts(doc).length).toBeGreaterThanOrEqual(8);
  });

  for (const { source, lines } of excerpts(doc)) {
    it(`quotes ${source} as it is`, () => {
      // Every line of the excerpt appears in the file, in the same order.
      const file = read(source).split('\n');
      let at = 0;
      for (const line of lines.filter((l) => l.trim())) {
        const found = file.indexOf(line, at);
        expect(found, `"${line.trim()}" is not in ${source} (after line ${at})`).toBeGreaterThanOrEqual(0);
        at = found + 1;
      }
    });
  }
});
