import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '@patchbay/embedded';
import { ROOT, runIn as run } from '../helpers/cli.js';
import { STARTS_WITHIN, until } from '../helpers/wait.js';

const BGP = join(ROOT, 'examples/plugins/bgp');

/**
 * A fresh copy of this Patchbay: its files as git sees them (untracked ones included, ignored ones not), and its
 * installed dependencies hard-linked rather than fetched again.
 */
function freshCopy(): string {
  const parent = mkdtempSync(join(tmpdir(), 'patchbay-fresh-'));
  // The embedded PostgreSQL runs as its own user, from binaries under node_modules: it must reach them.
  chmodSync(parent, 0o755);
  const fresh = join(parent, 'patchbay');
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) if (existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(fresh, file), { recursive: true });
  execFileSync('cp', ['-al', join(ROOT, 'node_modules'), join(fresh, 'node_modules')]);
  return fresh;
}

describe('a plugin that is a package of its own (examples/plugins/bgp)', () => {
  it('is packed, installed by name into a fresh Patchbay by the documented command, served, and passes its kit tests there', async () => {
    const fresh = freshCopy();
    const packs = mkdtempSync(join(tmpdir(), 'patchbay-packs-'));
    const packed = await run('npm', ['pack', '--pack-destination', packs], BGP);
    expect(packed.code, packed.stderr).toBe(0);
    const [tarball] = readdirSync(packs);
    expect(tarball).toBe('patchbay-bgp-1.0.0.tgz');

    // The documented command: no unrelated `patchbay` is fetched for the peer.
    const installed = await run('npm', ['install', '--no-save', '--prefer-offline', '--no-audit', '--no-fund', join(packs, tarball)], fresh);
    expect(installed.code, installed.stderr).toBe(0);
    expect(existsSync(join(fresh, 'node_modules/patchbay-bgp/index.ts'))).toBe(true);
    expect(existsSync(join(fresh, 'node_modules/patchbay'))).toBe(false);

    // Enabled by its package name in a real `npm start` (two workers on an embedded PostgreSQL).
    const dataDir = mkdtempSync(join(tmpdir(), 'patchbay-data-'));
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), PLUGINS: 'patchbay-bgp', PATCHBAY_CONFIG: '' };
    const server = spawn('npm', ['start'], { cwd: fresh, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    server.stderr.on('data', (d: Buffer) => (log += d.toString()));
    try {
      await until(() => log.includes('Patchbay listening') || server.exitCode !== null, STARTS_WITHIN, 'npm start with the plugin');
      expect(log).toContain('Patchbay listening');
      const made = await run('npm', ['run', '-s', 'manage', '--', 'createsuperuser', '--username', 'root', '--password', 'a long enough secret', '--email', 'r@example.com'], fresh, env);
      expect(made.code, made.stderr).toBe(0);
      const token = (await run('npm', ['run', '-s', 'manage', '--', 'createtoken', '--username', 'root'], fresh, env)).stdout.trim();
      const get = async (path: string) => (await fetch(`http://127.0.0.1:${port}${path}`, { headers: { Authorization: `Token ${token}`, Accept: 'application/json' } })).json();
      expect((await get('/api/status/')).plugins).toMatchObject({ bgp: '1.0.0' });
      expect(Object.keys(await get('/api/plugins/bgp/'))).toEqual(['communities', 'routing-policies', 'sessions', 'summary']);
      expect(await get('/api/plugins/bgp/summary/')).toEqual({ local_as: 65000, sessions: 0, by_status: {} });
    } finally {
      server.kill('SIGTERM');
      await new Promise((ok) => (server.exitCode !== null ? ok(null) : server.once('exit', ok)));
    }

    // Its own type check and tests, from its own folder, on the fresh copy's kit, as its author runs them.
    const folder = join(mkdtempSync(join(tmpdir(), 'patchbay-bgp-')), 'bgp');
    cpSync(BGP, folder, { recursive: true, filter: (source) => !source.includes('node_modules') });
    expect((await run('npm', ['pkg', 'set', `devDependencies.patchbay=file:${fresh}`], folder)).code).toBe(0);
    const setup = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], folder);
    expect(setup.code, setup.stderr).toBe(0);
    const typecheck = await run('npm', ['run', '-s', 'typecheck'], folder);
    expect(typecheck, typecheck.stdout).toMatchObject({ code: 0, stdout: '' });
    const tested = await run('npm', ['test'], folder, { CI: 'true' });
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/Tests\s+7 passed \(7\)/);
  }, 3 * STARTS_WITHIN);
});
