import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@patchbay/embedded';

function which(cmd: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** The path of `command`, installing Debian's `pkg` with apt when it is missing and we may (root, apt-get present). */
export function ensureCommand(command: string, pkg: string, alternative?: string): string {
  const found = which(command);
  if (found) return found;
  if (process.getuid?.() === 0 && which('apt-get')) {
    process.stderr.write(`${command} is missing: installing ${pkg} with apt-get\n`);
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const installed = which(command);
    if (installed) return installed;
  }
  throw new Error(`The tests need ${command}: install it (apt-get install ${pkg})${alternative ? ` or ${alternative}` : ''}`);
}

/** A real Redis for the tests: TEST_REDIS_URL if given, else a throwaway redis-server on a free port. */
export async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.TEST_REDIS_URL) return { url: process.env.TEST_REDIS_URL, stop: async () => {} };
  const binary = ensureCommand('redis-server', 'redis-server', 'set TEST_REDIS_URL');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'patchbay-test-redis-'));
  mkdirSync(dir, { recursive: true });
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (spawnSync(which('redis-cli') ?? 'redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout?.trim() !== 'PONG') {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
