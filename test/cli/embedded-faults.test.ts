import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive, freePort } from '@patchbay/embedded';
import { MANAGE, ROOT } from '../helpers/cli.js';
import { STARTS_WITHIN, until } from '../helpers/wait.js';

/**
 * A server on `dataDir`, the child of a shell that waits for it; or, `reaps` false, of a process that never reaps it
 * (the shell becomes `sleep`), so that once killed it stays a zombie.
 */
function serve(dataDir: string, port: number, reaps = true): { child: ChildProcess; log: () => string } {
  const child = spawn('sh', ['-c', `"$@" & ${reaps ? 'wait' : 'exec sleep 600'}`, 'sh', ...MANAGE, 'runserver'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PATCHBAY_CONFIG: '', DATA_DIR: dataDir, PORT: String(port), WORKERS: '1', LOG_LEVEL: 'info', ACCESS_LOG: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  return { child, log: () => log };
}

/** The pid of the server `sh` started (its only child running `runserver`). */
function serverPid(parent: number): number | undefined {
  const children = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('runserver'));
}

const postmasterOf = (dataDir: string) => Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
const readyz = async (port: number) => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status ?? 0;

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'patchbay-data-'));
  chmodSync(dir, 0o755);
  return dir;
}

describe('the embedded PostgreSQL', () => {
  it('is started again when its postmaster dies; meanwhile requests answer 503, never 500', async () => {
    const dir = dataDir();
    const port = await freePort();
    const { child, log } = serve(dir, port);
    try {
      await until(() => log().includes('Patchbay listening'), STARTS_WITHIN, 'the server to listen');
      const first = postmasterOf(dir);
      process.kill(first, 'SIGKILL');
      const statuses = new Set<number>();
      await until(async () => {
        const status = await readyz(port);
        statuses.add(status);
        return status === 200 && log().includes('The embedded PostgreSQL is running again');
      }, 30_000, 'the database to be back');
      expect(log()).toContain('The embedded PostgreSQL exited (SIGKILL); starting it again');
      expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
      expect(postmasterOf(dir)).not.toBe(first);
      expect((await fetch(`http://127.0.0.1:${port}/api/`)).status).toBe(200);
    } finally {
      // The server first, while its shell still names it.
      const server = serverPid(child.pid!);
      if (server) process.kill(server, 'SIGTERM');
      if (server) await until(() => !alive(server), 30_000, 'the server to stop');
      child.kill('SIGKILL');
    }
  }, STARTS_WITHIN + 60_000);

  it('is never reused from a server killed moments ago, even while that server is a zombie its parent has not reaped', async () => {
    const dir = dataDir();
    const port = await freePort();
    // A parent that never reaps its children: the killed server stays a zombie.
    const first = serve(dir, port, false);
    const second = { child: undefined as ChildProcess | undefined, log: () => '' };
    try {
      await until(() => first.log().includes('Patchbay listening'), STARTS_WITHIN, 'the first server to listen');
      const server = serverPid(first.child.pid!)!;
      process.kill(server, 'SIGKILL');
      await until(() => readFileSync(`/proc/${server}/stat`, 'utf8').includes(') Z '), 5000, 'the server to be a zombie');
      Object.assign(second, serve(dir, port));
      await until(() => second.log().includes('Patchbay listening'), STARTS_WITHIN, 'the second server to listen');
      expect(second.log()).not.toContain('Using the embedded PostgreSQL of the server running');
      expect(await readyz(port)).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/api/`)).status).toBe(200);
    } finally {
      first.child.kill('SIGKILL');
      const server = second.child && serverPid(second.child.pid!);
      if (server) process.kill(server, 'SIGTERM');
      if (server) await until(() => !alive(server), 30_000, 'the second server to stop');
      second.child?.kill('SIGKILL');
    }
  }, 2 * STARTS_WITHIN + 60_000);
});
