import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
/** What `npm run manage` and `npm start` run (package.json), without npm. */
export const MANAGE = [process.execPath, '--max-semi-space-size=32', '--import', 'tsx', 'bin/manage.ts'];
const ENV = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PATCHBAY_CONFIG: '' });

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts `manage <args>` as `npm run manage` would, with a clean environment plus `env`; with `ownGroup`, in a process
 * group of its own, as a terminal runs a command (a Ctrl-C there signals the whole group).
 */
export function spawnManage(args: string[], env: Record<string, string> = {}, ownGroup = false): ChildProcess {
  return spawn(MANAGE[0], [...MANAGE.slice(1), ...args], {
    cwd: ROOT, env: { ...ENV(), LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: ownGroup,
  });
}

/** Starts `npm <args>` itself (`npm start`), as a newcomer would. */
export function spawnNpm(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn('npm', args, { cwd: ROOT, env: { ...ENV(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

const PROMPT = /(Username|Password|Password \(again\)): $/;

/**
 * Runs `manage <args>` on a pseudo-terminal (util-linux `script`), typing each of `answers` when a prompt
 * waits for it, as a person would; after the last answer the input ends. Returns what the terminal showed.
 */
export function manageOnTerminal(args: string[], answers: string[], env: Record<string, string>): Promise<CliResult> {
  return onTerminal([...MANAGE, ...args], answers, env);
}

/** Runs any command line on a pseudo-terminal, answering its prompts (see manageOnTerminal). */
export async function onTerminal(argv: string[], answers: string[], env: Record<string, string>): Promise<CliResult> {
  const command = argv.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...ENV(), TERM: 'dumb', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let typed = 0;
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (!PROMPT.test(stdout)) return;
    if (typed < answers.length) child.stdin!.write(`${answers[typed++]}\n`);
    else child.stdin!.end();
  });
  const code = await new Promise<number | null>((ok) => child.once('exit', ok));
  return { code, stdout: stdout.replace(/\r/g, ''), stderr: '' };
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

/** Runs a command in `cwd` as a person at a shell would: a clean environment but HOME (npm's cache), PATH and `env`. */
export function runIn(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((ok) => child.once('exit', (code) => ok({ code, stdout, stderr })));
}
