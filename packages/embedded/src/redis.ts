import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { alive, freePort, gone, selfIdentity, stillRunning, stopWhenGone } from './processes.js';

/** `redis-server` on the PATH (Debian's package), or undefined. */
function redisServer(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() || undefined : undefined;
}

async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * A Redis of the server's own, as the embedded PostgreSQL is: Debian's `redis-server` with its files (append-only, so
 * queued jobs survive a restart) under DATA_DIR/redis, bound to loopback on a free port. A command run beside the
 * server (`manage worker`) uses the server's.
 */
export class EmbeddedRedis {
  private child?: ChildProcess;
  url = '';
  attached = false;

  constructor(private readonly dataDir: string) {}

  private get dir(): string {
    return resolve(this.dataDir, 'redis');
  }

  /** `{pid, port, owner}` of the Redis last started here. */
  private get stateFile(): string {
    return resolve(this.dir, 'embedded-redis.json');
  }

  /** Starts (or attaches to) the Redis; undefined when `redis-server` is not installed. */
  async start(log: (msg: string) => void): Promise<string | undefined> {
    const binary = redisServer();
    if (!binary) return undefined;
    mkdirSync(this.dir, { recursive: true });
    if (existsSync(this.stateFile)) {
      const state = JSON.parse(readFileSync(this.stateFile, 'utf8')) as { pid: number; port: number; owner: string | number };
      const url = `redis://127.0.0.1:${state.port}`;
      const owner = String(state.owner);
      if (alive(state.pid) && owner !== selfIdentity() && stillRunning(owner) && (await answers(url))) {
        this.url = url;
        this.attached = true;
        return url;
      }
      if (alive(state.pid)) {
        log(`Stopping an embedded Redis left running by a process that ended (pid ${state.pid})`);
        process.kill(state.pid, 'SIGTERM');
        if (!(await gone(state.pid, 15_000))) throw new Error(`the Redis left running in ${this.dir} (pid ${state.pid}) does not stop`);
      }
    }
    const port = await freePort();
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', this.dir, '--appendonly', 'yes', '--save', '', '--daemonize', 'no', '--protected-mode', 'yes'];
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-2000)));
    const url = `redis://127.0.0.1:${port}`;
    const deadline = Date.now() + 10_000;
    while (!(await answers(url))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`redis-server did not start${said ? `: ${said.trim().split('\n').at(-1)}` : ''}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    writeFileSync(this.stateFile, JSON.stringify({ pid: child.pid, port, owner: selfIdentity() }));
    stopWhenGone(process.pid, child.pid!);
    this.url = url;
    return url;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.stateFile, { force: true });
  }
}
