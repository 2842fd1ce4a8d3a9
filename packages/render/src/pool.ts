import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { guarded } from '@patchbay/guards';
import { FrameReader, frame } from './channel.js';
import type { BridgeRequest, FromRenderer, RenderReply, RenderRequest } from './messages.js';
import { RenderPlans, replyOf } from './plan.js';

/**
 * Answers a render's bridge calls (reads under the requesting user's permissions). `follow`, for the read-ahead only
 * (never a template's call): the object `refs` reach from `root`, read as a `get` of it would be, found in SQL from
 * the root's id; undefined when a reference is not one it can follow.
 */
export type BridgeHandler = ((request: BridgeRequest) => Promise<unknown>) & {
  follow?(root: { model: string; id: number }, refs: string[]): Promise<unknown>;
};

export interface PoolLimits {
  workers: number;
  timeoutMs: number;
  memoryMb: number;
  maxOutput: number;
}

/** Why a render did not finish, in words for the client. */
export class RenderAborted extends Error {}

/** tsx's loader, found through its package's exports, so that it resolves wherever the server runs from. */
function tsxLoader(): string {
  const require = createRequire(import.meta.url);
  const manifest = require('tsx/package.json') as { exports: Record<string, string> };
  return pathToFileURL(join(dirname(require.resolve('tsx/package.json')), manifest.exports['.'])).href;
}
/** The template process's program, run by node through tsx. */
const ENTRY = ['--import', tsxLoader(), fileURLToPath(new URL('./worker/main.ts', import.meta.url))];

/** How a template process starts: node running its TypeScript entry, its heap bounded and its collector callable. */
function command(memoryMb: number): string[] {
  return [`--max-old-space-size=${memoryMb}`, `--max-semi-space-size=${Math.max(1, Math.min(16, Math.floor(memoryMb / 16)))}`, '--expose-gc', ...ENTRY];
}
/** How long a new process may take to load the renderer. */
const STARTUP_MS = 10_000;
/** What of a dead process's last words is kept, to tell running out of memory from other deaths. */
const LAST_WORDS = 4096;

interface Job {
  request: RenderRequest;
  handler: BridgeHandler;
  /** The calls the render waited on the server for (those not read ahead). */
  asked: number;
  resolve(reply: RenderReply): void;
  reject(err: Error): void;
}

/**
 * One template process and its channel. A render that runs out of memory ends this process (V8 aborts a process whose
 * heap is exhausted, and a worker thread's limit does not always stop short of that), never the server: a process of
 * its own is the only boundary that holds. It inherits nothing of the server's environment (database URL, secret
 * key), so that not even a template escaping the sandbox could read it.
 */
class TemplateProcess {
  private readonly child: ChildProcess;
  private readonly socket: Duplex;
  private readonly reader: FrameReader;
  private lastWords = '';
  private exited = false;
  private readonly ready: Promise<void>;
  private job?: { job: Job; settle(outcome: 'reusable' | 'ended'): void; failed(reason: string): void };

  constructor(memoryMb: number, maxOutput: number) {
    // Output JSON-encoded (at most six bytes a character) and room for the rest of the message.
    this.reader = new FrameReader(maxOutput * 6 + 1024 * 1024);
    this.child = spawn(process.execPath, command(memoryMb), { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], env: {} });
    this.socket = this.child.stdio[3] as Duplex;
    let loaded!: () => void;
    this.ready = new Promise((ok) => (loaded = ok));
    const broken = (err: unknown) => this.job?.failed(`its renderer failed (${err instanceof Error ? err.message : String(err)})`);
    this.child.stderr!.on('data', guarded((chunk: Buffer) => {
      this.lastWords = (this.lastWords + chunk.toString('utf8')).slice(-LAST_WORDS);
    }, broken));
    this.socket.on('data', guarded((chunk: Buffer) => {
      for (const message of this.reader.push(chunk) as FromRenderer[]) this.receive(message, loaded);
    }, (err) => {
      broken(err);
      this.kill();
    }));
    this.socket.on('error', guarded(() => undefined, broken));
    this.child.on('error', guarded(broken, broken));
    this.child.on('exit', guarded(() => {
      this.exited = true;
      this.job?.failed(/heap out of memory|heap limit/i.test(this.lastWords)
        ? 'The template used more memory than a render may use.'
        : 'The template could not be rendered (its renderer ended).');
    }, broken));
  }

  private receive(message: FromRenderer, loaded: () => void): void {
    if (message.kind === 'ready') return loaded();
    const current = this.job;
    if (!current) return;
    if (message.kind === 'done') {
      current.job.resolve({ ...message.reply, asked: current.job.asked });
      current.settle('reusable');
    } else {
      current.job.asked++;
      void this.answer(current.job.handler, message.call);
    }
  }

  private async answer(handler: BridgeHandler, call: BridgeRequest): Promise<void> {
    const reply = await replyOf(handler, call);
    if (!this.exited) this.socket.write(frame({ kind: 'answer', reply }));
  }

  /** Runs one render; ends the process (the caller replaces it) when the render overruns or the process dies. */
  run(job: Job, timeoutMs: number): Promise<'reusable' | 'ended'> {
    return new Promise((settle) => {
      let timer: NodeJS.Timeout;
      const finish = (outcome: 'reusable' | 'ended') => {
        if (this.job?.job !== job) return;
        clearTimeout(timer);
        this.job = undefined;
        settle(outcome);
      };
      const failed = (reason: string) => {
        job.reject(new RenderAborted(reason));
        this.kill();
        finish('ended');
      };
      this.job = { job, settle: finish, failed };
      if (this.exited) return failed('The template could not be rendered (its renderer ended).');
      // The process's start is not the render's time: the clock starts once it is ready (within STARTUP_MS).
      timer = setTimeout(() => failed('The template renderer did not start.'), STARTUP_MS);
      void this.ready.then(() => {
        if (this.job?.job !== job) return;
        clearTimeout(timer);
        timer = setTimeout(() => failed(`The template took longer than ${timeoutMs} ms to render.`), timeoutMs);
        this.socket.write(frame({ kind: 'render', request: job.request }));
      });
    });
  }

  /** Whether it can take a render: one that ended while idle (killed from outside) is not given one. */
  get alive(): boolean {
    return !this.exited;
  }

  private kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  close(): Promise<void> {
    if (this.exited) return Promise.resolve();
    const gone = new Promise<void>((ok) => this.child.once('exit', () => ok()));
    // Its end of the socket closes: it reads nothing more and exits.
    this.socket.end();
    const timer = setTimeout(() => this.kill(), 1000);
    return gone.finally(() => clearTimeout(timer));
  }
}

/**
 * Template renders run in processes of their own, never on the event loop: a template that loops forever or eats
 * memory is ended (its process killed and replaced) while every other request is served as usual. Processes start
 * on first use and are kept; renders beyond their number wait in line.
 */
export class RenderPool {
  private readonly idle: TemplateProcess[] = [];
  private readonly all = new Set<TemplateProcess>();
  private readonly queue: Job[] = [];
  private running = 0;
  private closed = false;
  private readonly plans = new RenderPlans();

  constructor(private readonly limits: PoolLimits) {}

  /** Renders `request`, with the answers to what its template called last time read ahead (`RenderPlans`). */
  async render(request: RenderRequest, handler: BridgeHandler): Promise<RenderReply> {
    const preloaded = this.closed ? [] : await this.plans.readAhead(request.source, request.objects, handler);
    if (this.closed) throw new RenderAborted('The server is shutting down.');
    const reply = await new Promise<RenderReply>((resolve, reject) => {
      this.queue.push({ request: preloaded.length ? { ...request, preloaded } : request, handler, asked: 0, resolve, reject });
      this.next();
    });
    this.plans.learn(request.source, reply.calls, reply.read);
    return reply;
  }

  /** The keys the renders of `source` read of each model's objects: what rows for its next render need hold. */
  keysRead(source: string): ReadonlyMap<string, ReadonlySet<string>> | undefined {
    return this.plans.keysRead(source);
  }

  private next(): void {
    while (this.queue.length && this.running < this.limits.workers) {
      const job = this.queue.shift()!;
      let worker = this.idle.pop();
      while (worker && !worker.alive) {
        this.all.delete(worker);
        worker = this.idle.pop();
      }
      worker ??= new TemplateProcess(this.limits.memoryMb, this.limits.maxOutput);
      this.all.add(worker);
      this.running++;
      void worker.run(job, this.limits.timeoutMs).then((outcome) => {
        this.running--;
        if (outcome === 'reusable' && !this.closed) this.idle.push(worker);
        else {
          this.all.delete(worker);
          void worker.close();
        }
        this.next();
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new RenderAborted('The server is shutting down.'));
    this.idle.length = 0;
    await Promise.all([...this.all].map((w) => w.close()));
    this.all.clear();
  }
}
