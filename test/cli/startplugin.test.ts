import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, manage, runIn as run } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/server.js';

describe('manage startplugin', () => {
  it('refuses a bad name, a folder inside Patchbay and a folder that is not empty', async () => {
    expect(await manage(['startplugin'])).toMatchObject({ code: 2, stderr: 'Name the plugin: startplugin <name>\nSee: npm run -s manage -- startplugin --help\n' });
    expect((await manage(['startplugin', 'Bad-Name', '--dir', join(tmpdir(), 'x')])).stderr).toBe('"Bad-Name" is not a plugin name: lowercase letters, digits and underscores, starting with a letter\nSee: npm run -s manage -- startplugin --help\n');
    const inside = await manage(['startplugin', 'inside', '--dir', join(ROOT, 'examples/plugins/inside')]);
    expect(inside).toMatchObject({ code: 2, stderr: `${join(ROOT, 'examples/plugins/inside')} is inside Patchbay's folder: a plugin is a package of its own; choose another --dir\nSee: npm run -s manage -- startplugin --help\n` });
    const taken = mkdtempSync(join(tmpdir(), 'patchbay-plugin-'));
    writeFileSync(join(taken, 'x'), '');
    expect(await manage(['startplugin', 'taken', '--dir', taken])).toMatchObject({ code: 1, stderr: `${taken} exists and is not empty\n` });
    // Four command processes, each some 3.5 s to boot on an idle machine and several times that on a busy one.
  }, 90_000);

  it('writes a package outside the tree that loads by path, matches its migration, type-checks and passes its kit test', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'patchbay-plugin-')), 'patchbay-bgp_lite');
    const made = await manage(['startplugin', 'bgp_lite', '--dir', dir]);
    expect(made).toMatchObject({ code: 0, stdout: `Wrote the plugin bgp_lite in ${dir}\nNext: cd ${dir} && npm install && npm test\n` });
    expect(readdirSync(dir).sort()).toEqual(['.gitignore', 'README.md', 'index.ts', 'migrations', 'models', 'package.json', 'test', 'tsconfig.json', 'vitest.config.ts']);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'patchbay-bgp_lite', type: 'module', peerDependencies: { patchbay: '^0.1.0' }, peerDependenciesMeta: { patchbay: { optional: true } },
      devDependencies: { patchbay: `file:${ROOT}` },
    });
    // Generated migrations import only `patchbay`.
    const [migration] = readdirSync(join(dir, 'migrations'));
    expect(readFileSync(join(dir, 'migrations', migration), 'utf8')).toMatch(/^import \{ Migration \} from 'patchbay';\n/);

    // By path, before anything is installed there: `patchbay` resolves to the server that loads it.
    const env = { DATABASE_URL: await freshDatabase(), PLUGINS: dir, LOG_LEVEL: 'error' };
    const migrated = await manage(['migrate'], env);
    expect(migrated.stderr).toBe('');
    expect((await manage(['showmigrations'], env)).stdout).toContain(`[X] bgp_lite/${migration.replace(/\.ts$/, '')}`);
    // Its migration makes the table its model declares.
    expect(await manage(['makemigrations', 'bgp_lite'], env)).toMatchObject({ code: 0, stdout: 'No changes detected.\n' });

    // Its author's commands.
    const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir);
    expect(installed.code, installed.stderr).toBe(0);
    // Patchbay itself is linked, not fetched: no unrelated package of the same name.
    expect(readFileSync(join(dir, 'node_modules/patchbay/package.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const typecheck = await run('npm', ['run', '-s', 'typecheck'], dir);
    expect(typecheck, typecheck.stdout).toMatchObject({ code: 0, stdout: '' });
    // On the kit's own embedded PostgreSQL: nothing of this run's is in its environment.
    const tested = await run('npm', ['test'], dir, { CI: 'true', NO_COLOR: '1' });
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/Tests\s+3 passed \(3\)/);
  }, 300_000);
});
