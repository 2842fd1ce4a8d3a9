import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { BridgeReply, BridgeRequest, RenderReply, RenderRequest } from './messages.js';

/** Answers a render's bridge calls (reads under the requesting user's permissions). */
export type BridgeHandler = (request: BridgeRequest) => Promise<unknown>;

export interface PoolLimits {
  workers: number;
  timeoutMs: number;
  memoryMb: number;
}

/** Why a render did not finish, in words for the client. */
export class RenderAborted extends Error {}

/**
 * What a worker runs first: tsx's loader, registered from its ESM API (found through its package's exports; Node 20
 * applies no `--import` to a worker), then the worker's TypeScript entry, whatever started the server.
 */
function bootstrap(): string {
  const require = createRequire(import.meta.url);
  const manifest = require('tsx/package.json') as { exports: Record<string, { import: { default: string } }> };
  const api = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), manifest.exports['./esm/api'].import.default)).href;
  const entry = new URL('./worker/main.ts', import.meta.url).href;
  return `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
}
const BOOTSTRAP = bootstrap();
/** How long a new thread may take to load the renderer. */
const STARTUP_MS = 10_000;

interface Job {
  request: RenderRequest;
  handler: BridgeHandler;
  resolve(reply: RenderReply): void;
  reject(err: Error): void;
}

/** One worker thread and its bridge: a port for the calls and a flag its renders sleep on while the main thread reads. */
class TemplateWorker {
  readonly thread: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private handler?: BridgeHandler;
  /** Resolves once the thread has loaded the renderer (a few hundred milliseconds after it starts). */
  private readonly ready: Promise<void>;

  constructor(memoryMb: number) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.thread = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { port: port2, flag: this.flag.buffer },
      // Nothing of the server's environment (database URL, secret key) is in reach of a template, even one escaping.
      env: {},
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(32, memoryMb / 4) },
      stdout: false,
      stderr: false,
    });
    this.ready = new Promise((ok) => this.thread.once('message', () => ok()));
    this.port.on('message', (request: BridgeRequest) => void this.answer(request));
    // A render reads the thread's errors while it runs; a thread already given up (its render timed out while it ran
    // out of memory) may still report one as it ends, which must not reach the process as an uncaught error.
    this.thread.on('error', () => undefined);
  }

  private async answer(request: BridgeRequest): Promise<void> {
    let reply: BridgeReply;
    try {
      if (!this.handler) throw new Error('No render is running.');
      reply = { ok: true, value: await this.handler(request) };
    } catch (err) {
      reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    this.port.postMessage(reply);
    Atomics.store(this.flag, 0, 1);
    Atomics.notify(this.flag, 0);
  }

  /** Runs one render; ends the thread (the caller replaces it) when the render overruns or the thread dies. */
  run(job: Job, timeoutMs: number): Promise<'reusable' | 'ended'> {
    this.handler = job.handler;
    return new Promise((settle) => {
      let done = false;
      const finish = (outcome: 'reusable' | 'ended') => {
        done = true;
        clearTimeout(timer);
        this.thread.off('message', onReply);
        this.thread.off('error', onError);
        this.thread.off('exit', onExit);
        this.handler = undefined;
        settle(outcome);
      };
      const onReply = (reply: RenderReply | 'ready') => {
        if (reply === 'ready') return;
        job.resolve(reply);
        finish('reusable');
      };
      const onError = (err: Error & { code?: string }) => {
        const memory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
        job.reject(new RenderAborted(memory ? 'The template used more memory than a render may use.' : 'The template could not be rendered.'));
        finish('ended');
      };
      const onExit = () => {
        job.reject(new RenderAborted('The template could not be rendered.'));
        finish('ended');
      };
      const overrun = (message: string) => () => {
        job.reject(new RenderAborted(message));
        void this.thread.terminate();
        finish('ended');
      };
      // The thread's start is not the render's time: the clock starts once it is ready (within STARTUP_MS).
      let timer = setTimeout(overrun('The template renderer did not start.'), STARTUP_MS);
      this.thread.on('message', onReply);
      this.thread.on('error', onError);
      this.thread.on('exit', onExit);
      void this.ready.then(() => {
        if (done) return;
        clearTimeout(timer);
        timer = setTimeout(overrun(`The template took longer than ${timeoutMs} ms to render.`), timeoutMs);
        this.thread.postMessage(job.request);
      });
    });
  }

  close(): Promise<number> {
    this.port.close();
    return this.thread.terminate();
  }
}

/**
 * Template renders run in worker threads, never on the event loop: a template that loops forever or eats memory is
 * ended (its thread terminated and replaced) while every other request is served as usual. Threads start on first
 * use and are kept; renders beyond their number wait in line.
 */
export class RenderPool {
  private readonly idle: TemplateWorker[] = [];
  private readonly all = new Set<TemplateWorker>();
  private readonly queue: Job[] = [];
  private running = 0;
  private closed = false;

  constructor(private readonly limits: PoolLimits) {}

  render(request: RenderRequest, handler: BridgeHandler): Promise<RenderReply> {
    if (this.closed) return Promise.reject(new RenderAborted('The server is shutting down.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request, handler, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.queue.length && this.running < this.limits.workers) {
      const job = this.queue.shift()!;
      const worker = this.idle.pop() ?? new TemplateWorker(this.limits.memoryMb);
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
