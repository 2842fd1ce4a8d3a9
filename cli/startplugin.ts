import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PATCHBAY_VERSION } from '../kernel/base/version.js';
import { CommandError } from '../kernel/plugin.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TEMPLATE = fileURLToPath(new URL('./startplugin/template/', import.meta.url));
/** A plugin's name: an app label (it prefixes its tables and model keys). */
const NAME = /^[a-z][a-z0-9_]*$/;

/** The template's files, each with its path in the new package (`x.tmpl` → `x`, `gitignore` → `.gitignore`). */
function templateFiles(dir = TEMPLATE): { from: string; to: string }[] {
  return readdirSync(dir).flatMap((entry) => {
    const from = join(dir, entry);
    if (statSync(from).isDirectory()) return templateFiles(from);
    const to = relative(TEMPLATE, from).replace(/\.tmpl$/, '').replace(/^gitignore$/, '.gitignore');
    return [{ from, to }];
  });
}

/** The words replaced in the template: the plugin's names, Patchbay's folder and version range, the tools' versions. */
function substitutions(name: string): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const words = name.split('_');
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  return {
    __NAME__: name,
    __CLASS__: words.map((w) => w[0].toUpperCase() + w.slice(1)).join(''),
    __LABEL__: words.map((w, i) => (i ? w : w[0].toUpperCase() + w.slice(1))).join(' '),
    __PATCHBAY__: ROOT.replace(/\/$/, ''),
    __RANGE__: `^${PATCHBAY_VERSION}`,
    __STAMP__: stamp,
    __TYPES_NODE__: manifest.devDependencies['@types/node'],
    __TYPESCRIPT__: manifest.devDependencies.typescript,
    __VITEST__: manifest.devDependencies.vitest,
  };
}

/**
 * `manage startplugin <name> [--dir PATH]`: writes a plugin package outside Patchbay's folder (by default beside it,
 * `patchbay-<name>`): its manifest with Patchbay as a peer, TypeScript and vitest settings, one model and its
 * migration, a README and a test on the test kit that passes with `npm install && npm test`.
 */
export async function startplugin(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { dir: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CommandError((err as Error).message, 2);
  }
  const [name, ...rest] = parsed.positionals;
  if (!name || rest.length) {
    throw new CommandError(name ? `One name only: ${[name, ...rest].join(' ')}` : 'Name the plugin: startplugin <name>', 2);
  }
  if (!NAME.test(name)) {
    throw new CommandError(`"${name}" is not a plugin name: lowercase letters, digits and underscores, starting with a letter`, 2);
  }
  // npm runs scripts in Patchbay's folder; INIT_CWD is where `npm run` was typed.
  const dir = resolve(process.env.INIT_CWD ?? process.cwd(), parsed.values.dir ?? join(dirname(ROOT.replace(/\/$/, '')), `patchbay-${name}`));
  if (!relative(ROOT, dir).startsWith('..')) {
    throw new CommandError(`${dir} is inside Patchbay's folder: a plugin is a package of its own; choose another --dir`, 2);
  }
  if (existsSync(dir) && readdirSync(dir).length) {
    process.stderr.write(`${dir} exists and is not empty\n`);
    return 1;
  }
  const words = substitutions(name);
  for (const { from, to } of templateFiles()) {
    const target = join(dir, to.replace(/__\w+?__/g, (w) => words[w] ?? w));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, readFileSync(from, 'utf8').replace(/__[A-Z_]+?__/g, (w) => words[w] ?? w));
  }
  process.stdout.write(`Wrote the plugin ${name} in ${dir}\nNext: cd ${dir} && npm install && npm test\n`);
  return 0;
}
