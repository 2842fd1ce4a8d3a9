import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach } from 'vitest';
import { keyDigest } from '../../kernel/auth/tokens.js';
import { hashPassword } from '../../plugins/users/password.js';
import { freePort } from '@patchbay/embedded';
import { MANAGE, ROOT } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

/**
 * A PATH with every command of this one but `hidden`: `npm start` on a machine without redis-server, on one that has
 * it. Commands added to its folder later (`reveal`) appear to processes started with it, as an install would.
 */
export function pathWithout(hidden: string): { path: string; reveal(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'patchbay-path-'));
  let found: string | undefined;
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (!folder || !existsSync(folder)) continue;
    for (const name of readdirSync(folder)) {
      const target = join(folder, name);
      if (name === hidden) {
        found ??= target;
        continue;
      }
      if (!existsSync(join(dir, name))) symlinkSync(target, join(dir, name));
    }
  }
  return {
    path: dir,
    reveal: () => {
      if (!found) throw new Error(`${hidden} is not installed`);
      symlinkSync(found, join(dir, hidden));
    },
  };
}

/** Processes whose parent is `pid`, from /proc. */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid && fields[0] !== 'Z') children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children.sort((a, b) => a - b);
}

export const PASSWORD = 'correct horse battery';

export interface NpmStart {
  base: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  /** The server processes the supervisor runs now (its workers), by pid. */
  workers(): number[];
  env: Record<string, string>;
  /** SIGTERM, and the wait for every process to end. */
  stop(): Promise<void>;
  /** SIGKILL to the supervisor and every process of its group, as a crash or an OOM killer would. */
  kill(): Promise<void>;
}

/** Every `npm start` a test began and has not stopped: a test that times out never reaches its own `finally`. */
const running = new Set<NpmStart>();

/** Stops every `npm start` still running (each chaos file's `afterAll`). */
export async function stopAll(): Promise<void> {
  for (const server of [...running]) await server.kill();
}

// The last resort, should the test process end first: its servers are in process groups of their own.
process.once('exit', () => {
  for (const { child } of running) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
});

/** Node's processes among the supervisor's children: its workers (the embedded PostgreSQL and Redis are not node). */
function workersOf(pid: number): number[] {
  return childrenOf(pid).filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('manage.ts');
    } catch {
      return false;
    }
  });
}

/**
 * `npm start` as a newcomer runs it (the command package.json runs, without npm between): its defaults (one process
 * per core, here WORKERS=2, an embedded PostgreSQL in DATA_DIR, a Redis of its own when redis-server is on PATH), in
 * a process group of its own so that a test can kill it all. Resolves once every worker listens.
 */
export async function npmStart(options: { path: string; dataDir?: string; port?: number; env?: Record<string, string> }): Promise<NpmStart> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'patchbay-chaos-'));
  // Run as root, PostgreSQL runs as a user of its own, which must reach its folder.
  chmodSync(dataDir, 0o755);
  const port = options.port ?? (await freePort());
  const env: Record<string, string> = {
    PATH: options.path, HOME: process.env.HOME ?? '/tmp', PATCHBAY_CONFIG: '', DATA_DIR: dataDir, PORT: String(port), WORKERS: '2',
    METRICS_ENABLED: 'true', LOG_LEVEL: 'info', ...options.env,
  };
  const child = spawn(MANAGE[0], [...MANAGE.slice(1), 'runserver'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const server: NpmStart = {
    base: `http://127.0.0.1:${port}`, port, dataDir, child, env,
    output: () => output,
    workers: () => workersOf(child.pid!),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      running.delete(server);
    },
    kill: async () => {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      await exited;
      running.delete(server);
    },
  };
  running.add(server);
  await until(() => /Patchbay listening on/.test(output) || child.exitCode !== null, 120_000, 'npm start listening');
  if (child.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
  await until(() => server.workers().length === 2, 10_000, 'two workers');
  return server;
}

/**
 * A superuser's token on a running `npm start`, written into its embedded PostgreSQL (what `manage createsuperuser`
 * and `createtoken` write, without starting two more node processes).
 */
export async function adminToken(server: NpmStart): Promise<string> {
  const [, , , port] = readFileSync(join(server.dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  const client = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/patchbay` });
  await client.connect();
  try {
    const { rows: [user] } = await client.query(
      `insert into users_user (username, password, is_superuser, is_staff, is_active, created, last_updated)
       values ('admin', $1, true, true, true, now(), now()) on conflict (username) do update set is_active = true returning id`,
      [await hashPassword(PASSWORD)],
    );
    const key = randomBytes(20).toString('hex');
    await client.query(
      `insert into users_token (user_id, key, key_digest, write_enabled, created, last_updated) values ($1, $2, $3, true, now(), now())`,
      [user.id, key, keyDigest(key)],
    );
    return key;
  } finally {
    await client.end();
  }
}

/** After a test that failed, what the server printed last: why a wait for it timed out. */
export function printOutputOnFailure(server: () => NpmStart | undefined): void {
  afterEach((context) => {
    const output = server()?.output();
    if (context.task.result?.state === 'fail' && output) console.error(`npm start printed (last 6,000 characters):\n${output.slice(-6000)}`);
  });
}

/** Removes a data directory a chaos test made. */
export function removeData(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
