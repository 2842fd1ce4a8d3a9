import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** The code blocks of a document that name their source file on their first line (`// path/to/file.ts`). */
function excerpts(doc: string): { source: string; lines: string[] }[] {
  return [...doc.matchAll(/```ts\n\/\/ (\S+\.ts)\n([\s\S]*?)```/g)].map((m) => ({ source: m[1], lines: m[2].split('\n') }));
}

const parsed = (path: string) => ts.createSourceFile(path, read(path), ts.ScriptTarget.Latest, true);

/** The names of the members an interface of `path` declares itself (not those it extends). */
function members(path: string, name: string): string[] {
  const found = parsed(path).statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  if (!found) throw new Error(`${name} is not an interface of ${path}`);
  return found.members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : []));
}

/** The builders of `f` and the options type each takes (undefined for none), from kernel/model/fields/index.ts. */
function builders(): { name: string; options?: string }[] {
  const source = parsed('kernel/model/fields/index.ts');
  const decl = source.statements.filter(ts.isVariableStatement).flatMap((s) => s.declarationList.declarations).find((d) => d.name.getText() === 'f');
  const literal = decl?.initializer;
  if (!literal || !ts.isObjectLiteralExpression(literal)) throw new Error('f is not an object literal');
  return literal.properties.filter(ts.isPropertyAssignment).map((p) => {
    const fn = p.initializer as ts.ArrowFunction;
    const typed = fn.parameters.map((param) => param.type?.getText()).find((type) => type?.endsWith('Options'));
    return { name: p.name.getText(), options: typed };
  });
}

/** Where each options interface is declared. */
const OPTION_FILES = ['kernel/model/field.ts', ...['scalar', 'choice', 'foreign-key', 'many-to-many', 'generic', 'image', 'list', 'reverse'].map((f) => `kernel/model/fields/${f}.ts`)];
function optionsOf(type: string): string[] {
  for (const file of OPTION_FILES) {
    if (new RegExp(`export interface ${type}\\b`).test(read(file))) return members(file, type);
  }
  throw new Error(`No options interface ${type}`);
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

  it('names every field builder and each of its options in the reference, and the example uses every builder', () => {
    const example = read('test/fixtures/plugins/kinds/index.ts');
    const rows = doc.split('\n').filter((l) => l.startsWith('| `f.'));
    for (const { name, options } of builders()) {
      const row = rows.find((r) => r.startsWith(`| \`f.${name}(`));
      expect(row, `f.${name} has no row in the field kind reference`).toBeDefined();
      expect(example, `the reference's example does not use f.${name}`).toContain(`f.${name}(`);
      if (!options || options === 'CommonOptions') continue;
      for (const option of optionsOf(options)) expect(row, `f.${name}'s row does not name ${option}`).toContain(`\`${option}\``);
    }
    const common = doc.split('\n').filter((l) => /^\| `\w+` \|/.test(l)).map((l) => l.split('`')[1]);
    expect(common).toEqual(expect.arrayContaining(members('kernel/model/field.ts', 'CommonOptions')));
  });

  it('names every key of a plugin, of a model declaration and of its hooks', () => {
    const keys = [
      ...members('kernel/plugin.ts', 'PluginDefinition'),
      ...members('kernel/model/model.ts', 'ModelDeclaration'),
      ...members('kernel/model/model.ts', 'ModelHooks'),
    ];
    expect(keys.length).toBeGreaterThan(50);
    expect(keys.filter((key) => !doc.includes(`\`${key}`))).toEqual([]);
  });
});
