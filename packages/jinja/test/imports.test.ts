import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Every module specifier a source file imports (static and dynamic imports, re-exports, require). */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
}

describe('the package', () => {
  it('imports only its own files, node and nunjucks', () => {
    const foreign: string[] = [];
    const dir = new URL('../src/', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      for (const spec of specifiers(readFileSync(new URL(file, dir), 'utf8'))) {
        const own = spec.startsWith('./') && !spec.includes('/', 2);
        if (!own && !spec.startsWith('node:') && !/^nunjucks\//.test(spec)) foreign.push(`${file}: ${spec}`);
      }
    }
    expect(foreign).toEqual([]);
  });
});
