import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/.bin/tsx');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `manage <args>` as `npm run manage` would, with a clean environment plus `env`. */
export function spawnManage(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(TSX, ['bin/manage.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PATCHBAY_CONFIG: '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `manage <args>` on a pseudo-terminal (util-linux `script`), typing `input`. */
export async function manageOnTerminal(args: string[], input: string, env: Record<string, string>): Promise<CliResult> {
  const command = [TSX, 'bin/manage.ts', ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PATCHBAY_CONFIG: '', TERM: 'dumb', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stdin!.end(input);
  const code = await new Promise<number | null>((ok) => child.once('exit', ok));
  return { code, stdout, stderr: '' };
}

/** Runs `manage <args>` to completion. */
export async function manage(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawnManage(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((ok) => child.once('exit', ok));
  return { code, stdout, stderr };
}
