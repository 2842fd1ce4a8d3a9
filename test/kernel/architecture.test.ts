import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Services } from '../../kernel/services.js';
import { builtinPlugins } from '../../plugins/index.js';
import { ROOT } from '../helpers/cli.js';

const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const CRUISER = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Cruise {
  summary: { violations: { rule: { name: string }; from: string; to: string }[]; totalCruised: number };
  modules: { source: string; dependencies: { resolved: string }[] }[];
}

/** The import graph of the sources (value imports only) with the rules' violations, as dependency-cruiser reports them. */
async function cruise(): Promise<Cruise> {
  const { stdout } = await promisify(execFile)(process.execPath, [CRUISER, 'kernel', 'testing', 'plugins', 'cli', 'examples', 'packages/jinja/src', 'packages/embedded/src', 'packages/queue/src', 'packages/render/src', 'packages/cluster-metrics/src', 'packages/guards/src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
    cwd: ROOT, maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Cruise;
}

describe('the architecture', () => {
  it('holds the import rules: layers, no cycle, apps through patchbay and their dependencies\' public faces', async () => {
    const { summary, modules } = await cruise();
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
    // It did look: the whole tree, and the imports of one app's public face by another.
    expect(summary.totalCruised).toBeGreaterThan(400);
    const appOf = (path: string) => /^plugins\/([^/]+)\//.exec(path)?.[1];
    const crossing = modules.flatMap((m) => m.dependencies.map((d) => [m.source, d.resolved] as const)).filter(([from, to]) => appOf(from) && appOf(to) && appOf(from) !== appOf(to));
    expect(crossing).toContainEqual(['plugins/circuits/index.ts', 'plugins/dcim/api.ts']);
    // Only into apps each declares a dependency.
    const dependencies = new Map(builtinPlugins.map((p) => [p.name, p.dependencies ?? []]));
    for (const [from, to] of crossing) expect(dependencies.get(appOf(from)!), `${from} → ${to}`).toContain(appOf(to));
  }, 120_000);

  it('is described truly in docs/architecture.md: layers, services, and the paths it names', () => {
    const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: { name: string }[] };
    const layers = /```layers\n([\s\S]*?)```/.exec(DOC)![1].trim().split('\n').map((line) => line.trim().split(/\s+/));
    // Each layer below the top has its rule, in the order the page lists them.
    expect(config.forbidden.filter((r) => r.name.startsWith('layer-')).map((r) => r.name)).toEqual(layers.slice(0, -1).map((l) => `layer-${l.join('-')}`));
    // Every folder of the kernel is in one layer.
    const folders = readdirSync(join(ROOT, 'kernel')).filter((name) => statSync(join(ROOT, 'kernel', name)).isDirectory());
    expect(layers.flat().sort()).toEqual(folders.sort());
    const services = [...DOC.matchAll(/^\| `([a-z]+)` \| /gm)].map((m) => m[1]);
    expect(services).toEqual(Object.keys(Services));
    const paths = [...DOC.matchAll(/`((?:kernel|plugins|packages|cli|examples|bin|test|docs)\/[^`\s]*|\.dependency-cruiser\.cjs)`/g)].map((m) => m[1]);
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) expect(existsSync(join(ROOT, path)), path).toBe(true);
  });
});
