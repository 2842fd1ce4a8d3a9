import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '@patchbay/embedded';
import { onTerminal, spawnNpm } from '../helpers/cli.js';
import { STARTS_WITHIN } from '../helpers/wait.js';

/** The shell blocks of the README's "Start it" section, line by line. */
function firstUseSteps(): string[][] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('## Start it');
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].trim().split('\n'));
}

/** What a shell makes of a simple command line: its words, quotes removed. */
const words = (line: string) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);

describe("the README's first-use steps", () => {
  it('run as written: start, create a superuser and a token, read the status with it', async () => {
    const [[start], steps] = firstUseSteps();
    // `npm install` has run already (the tests need it); the start is the same command.
    expect(start).toBe('npm install && npm start');
    const dataDir = mkdtempSync(join(tmpdir(), 'patchbay-readme-'));
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port) };
    const server = spawnNpm(['start'], env);
    let log = '';
    server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    const deadline = Date.now() + STARTS_WITHIN;
    while (!log.includes('Patchbay listening')) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`npm start did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    try {
      expect(steps).toHaveLength(3);
      const [superuser, token, curl] = steps.map(words);
      expect(superuser.slice(0, 5)).toEqual(['npm', 'run', '-s', 'manage', '--']);
      const made = await onTerminal(superuser, ['first-use password', 'first-use password'], env);
      expect(made.code).toBe(0);
      expect(made.stdout).toContain('Superuser admin created.');

      const minted = spawnNpm(token.slice(1), env);
      let key = '';
      minted.stdout!.on('data', (d: Buffer) => (key += d.toString()));
      expect(await new Promise((ok) => minted.once('exit', ok))).toBe(0);
      // The key is all that npm -s prints: it can be piped.
      expect(key).toMatch(/^[0-9a-f]{40}\n$/);

      expect(curl[0]).toBe('curl');
      const header = curl[2].replace('<key>', key.trim());
      const url = curl[3].replace('127.0.0.1:8000', `127.0.0.1:${port}`);
      const [name, value] = header.split(': ');
      const status = await fetch(url, { headers: { [name]: value } });
      expect(status.status).toBe(200);
      expect(await status.json()).toMatchObject({ 'netbox-version': '4.4', database: { status: 'ok' } });
    } finally {
      server.kill('SIGTERM');
      await new Promise((ok) => server.once('exit', ok));
    }
  }, STARTS_WITHIN + 60_000);
});
