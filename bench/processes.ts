import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@patchbay/embedded';
import { measure, report, type Measurement } from './harness.js';
import { hammer } from './load.js';

const ROOT = resolve(import.meta.dirname, '..');

/** A server process started for the bench, and how long it took from spawn to its first 200. */
interface Started {
  url: string;
  child: ChildProcess;
  startSeconds: number;
  stop(): Promise<void>;
}

/** Every process of the tree rooted at `pid` (a runserver and its workers). */
function tree(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...children.flatMap(tree)];
}

/** Resident memory of a process tree, in MB (node processes only: not the embedded Redis a server starts). */
function residentMB(pid: number): number {
  const kb = tree(pid)
    .filter((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('node'))
    .map((p) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0));
  return kb.reduce((a, b) => a + b, 0) / 1024;
}

/**
 * Spawns node with `argv` after the bench's own node flags (npm run bench passes npm start's: tsx and the young
 * generation's size) and waits until `probe` (a path on the URL it serves) answers 200.
 */
async function started(argv: string[], env: Record<string, string>, url: (child: ChildProcess, out: () => string) => string | undefined, probe: string, headers: Record<string, string>): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PATCHBAY_CONFIG: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const base = url(child, () => out);
    const status = base ? await fetch(`${base}${probe}`, { headers }).then((r) => r.status, () => 0) : 0;
    if (status === 200) {
      const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
      return { url: base!, child, startSeconds: (performance.now() - t0) / 1000, stop: async () => void (child.kill('SIGTERM'), await exited) };
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${argv.join(' ')} did not serve ${probe}:\n${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `manage runserver` with WORKERS=`workers` on the bench's database (a data directory of its own for its Redis). */
async function runserver(databaseUrl: string, workers: number, auth: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'patchbay-bench-'));
  const server = await started(
    [...process.execArgv, 'bin/manage.ts', 'runserver'],
    { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: String(port), WORKERS: String(workers), SECRET_KEY: 'bench', LOG_LEVEL: 'warn', RUN_JOBS: 'false' },
    () => `http://127.0.0.1:${port}`,
    '/api/tenancy/tenants/?limit=1',
    auth,
  );
  return { ...server, stop: async () => (await server.stop(), rmSync(dataDir, { recursive: true, force: true })) };
}

/** The hand-written tenant list as a process of its own (bench/baseline-server.ts). */
function baselineServer(databaseUrl: string): Promise<Started> {
  return started([...process.execArgv, 'bench/baseline-server.ts'], { DATABASE_URL: databaseUrl }, (_c, out) => /^(http:\S+)\//m.exec(out())?.[1], '/?limit=1', {});
}

const cost = (name: string, value: number, unit: string): Measurement => ({ name, requests: 0, seconds: 0, perSecond: value, unit });

/**
 * Patchbay as its users run it, in processes of its own: the cold start of `manage runserver` to its first 200 and
 * its resident memory after a warm-up, against the baseline served by a process of its own; then the throughput
 * of WORKERS=2 against WORKERS=1 (which must be higher: the machine has two cores).
 */
export async function processesBench(databaseUrl: string, auth: Record<string, string>, seconds: number): Promise<void> {
  const path = '/api/tenancy/tenants/?limit=1000';
  const baseline = await baselineServer(databaseUrl);
  const single = await runserver(databaseUrl, 1, auth);
  try {
    report('Cold start to the first 200 (a process on the migrated database)', [
      cost('hand-written SQL in node (baseline)', baseline.startSeconds, 's'),
      cost('Patchbay manage runserver, WORKERS=1', single.startSeconds, 's'),
    ], { lowerIsBetter: true });
    await measure('warm-up', `${baseline.url}/?limit=1000`, seconds);
    await measure('warm-up', `${single.url}${path}`, seconds, auth);
    report(`Resident memory after ${seconds} s of 1000-tenant pages`, [
      cost('hand-written SQL in node (baseline)', residentMB(baseline.child.pid!), 'MB'),
      cost('Patchbay, WORKERS=1', residentMB(single.child.pid!), 'MB'),
    ], { lowerIsBetter: true });
    await baseline.stop();
    const pair = await runserver(databaseUrl, 2, auth);
    try {
      await workersBench(single, pair, auth, seconds, path);
      await hostileBodiesBench(pair, auth, seconds);
    } finally {
      await pair.stop();
    }
  } finally {
    await Promise.all([baseline, single].filter((p) => p.child.exitCode === null && p.child.signalCode === null).map((p) => p.stop()));
  }
}

/**
 * WORKERS=2 against WORKERS=1, both running, measured in turns as the shared machine drifts: each turn measures one just
 * after the other, and the turn whose ratio is the median is shown.
 * The client is bench/load.ts's, which leaves the cores to the servers. On two cores a second process can share only
 * the server's own work, not PostgreSQL's: both a full page of 50 and a brief page of 1000 (mostly JSON) are shown.
 */
async function workersBench(single: Started, pair: Started, auth: Record<string, string>, seconds: number, warmup: string): Promise<void> {
  // Warmed as the single server was (its processes compile their hot code and prepare their statements).
  await measure('warm-up', `${pair.url}${warmup}`, seconds, auth);
  for (const [title, page] of [['List 50 tenants, full', '/api/tenancy/tenants/?limit=50'], ['List 1000 tenants, brief', '/api/tenancy/tenants/?limit=1000&brief=1']]) {
    const one = () => hammer('WORKERS=1 (baseline)', `${single.url}${page}`, seconds, auth, 8);
    const two = () => hammer('WORKERS=2', `${pair.url}${page}`, seconds, auth, 8);
    const turns: Measurement[][] = [];
    for (let turn = 0; turn < 5; turn++) {
      // The side going first swapped every turn; kept as [WORKERS=1, WORKERS=2].
      const swapped = turn % 2 === 1;
      const [first, second] = swapped ? [two, one] : [one, two];
      const measured = [await first(), await second()];
      turns.push(swapped ? measured.reverse() : measured);
    }
    report(`${title}, WORKERS=2 against WORKERS=1 (the median of 5 turns of ${seconds} s each, 8 connections)`, medianTurn(turns));
  }
}

/**
 * Another client's `/api/status/` (one client, one request after another) on WORKERS=2, alone and while three
 * clients keep sending bodies of one object of 500,000 keys (8 MB; two with a token, one without), which are refused
 * before they are read whole: its requests a second, and its slowest answer (the target is under 0.1 s).
 */
async function hostileBodiesBench(pair: Started, auth: Record<string, string>, seconds: number): Promise<void> {
  // Encoded once: the senders share the bench's cores with the servers, and should cost them as little as an attacker's.
  const wide = Buffer.from(`{${Array.from({ length: 500_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`);
  const status = async (): Promise<{ requests: number; slowest: number; ms: number }> => {
    let requests = 0;
    let slowest = 0;
    const start = performance.now();
    while (performance.now() - start < seconds * 1000) {
      const t0 = performance.now();
      const res = await fetch(`${pair.url}/api/status/`, { headers: auth });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`/api/status/: HTTP ${res.status}`);
      slowest = Math.max(slowest, performance.now() - t0);
      requests += 1;
    }
    return { requests, slowest, ms: performance.now() - start };
  };
  const alone = await status();
  let sending = true;
  const senders = [auth, auth, {}].map(async (headers) => {
    while (sending) {
      // Refused at the chunk that passes the bounds, the connection closed: a cut send is a refusal too.
      const status = await sendOnItsOwn(`${pair.url}/api/tenancy/tenants/`, wide, headers);
      if (status !== 400 && status !== 403 && status !== 'cut') throw new Error(`a 500,000-key body: HTTP ${status}`);
    }
  });
  const loaded = await status().finally(() => (sending = false));
  await Promise.all(senders);
  const rate = ({ requests, ms }: { requests: number; ms: number }) => requests / (ms / 1000);
  report('Another client\'s /api/status/ on WORKERS=2 while 3 clients send bodies of one 500,000-key object (refused unparsed)', [
    { name: 'alone (baseline)', requests: alone.requests, seconds: alone.ms / 1000, perSecond: rate(alone) },
    { name: 'beside the hostile bodies', requests: loaded.requests, seconds: loaded.ms / 1000, perSecond: rate(loaded) },
  ]);
  report('The slowest of those /api/status/ answers', [
    cost('alone (baseline)', alone.slowest, 'ms'),
    cost('beside the hostile bodies', loaded.slowest, 'ms'),
  ], { lowerIsBetter: true });
}

/** The turn (WORKERS=1's measurement and WORKERS=2's, taken one just after the other) whose ratio is the median. */
function medianTurn(turns: Measurement[][]): Measurement[] {
  const ratio = ([one, two]: Measurement[]) => two.perSecond / one.perSecond;
  return [...turns].sort((a, b) => ratio(a) - ratio(b))[Math.floor(turns.length / 2)];
}

/**
 * POSTs `body` on a connection of its own, as an attacker's client would: the connections the server closes after
 * refusing such bodies are never handed to the other client's requests (fetch's shared pool could reuse one as the
 * server closes it). Its status, or 'cut' when the server closed the connection before answering.
 */
function sendOnItsOwn(url: string, body: Buffer, headers: Record<string, string>): Promise<number | 'cut'> {
  return new Promise((done) => {
    const req = request(url, { method: 'POST', agent: false, headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
      res.on('error', () => done('cut'));
    });
    req.on('error', () => done('cut'));
    req.end(body);
  });
}
