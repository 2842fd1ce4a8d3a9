export interface Measurement {
  name: string;
  requests: number;
  seconds: number;
  /** Requests (or `unit`s) a second; for a cost row (see `report`), the cost in `unit`. */
  perSecond: number;
  /** What `perSecond` counts (default requests). */
  unit?: string;
}

/** A POST to measure: a fresh body for every request. */
export interface Post {
  body: () => unknown;
  status: number;
}

/** One request to `url` (a GET, or a POST of a fresh body), failing unless it answers the expected status. */
function requester(name: string, url: string, headers: Record<string, string>, post?: Post): () => Promise<void> {
  return async () => {
    const init: RequestInit = post
      ? { method: 'POST', body: JSON.stringify(post.body()), headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...headers } }
      : { headers: { Accept: 'application/json', ...headers } };
    const res = await fetch(url, init);
    if (res.status !== (post?.status ?? 200)) throw new Error(`${name}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
    await res.arrayBuffer();
  };
}

/** Requests `url` with `concurrency` clients for `seconds` (after a short warm-up) and reports requests/s. */
export async function measure(
  name: string, url: string, seconds: number, headers: Record<string, string> = {}, concurrency = 4, post?: Post,
): Promise<Measurement> {
  const [measured] = await measureSides([requestTo(name, url, headers, post)], seconds, 1, concurrency);
  return measured;
}

/** Runs `hit` with `concurrency` clients until `ms` have passed; answers how many ran and how long they took. */
async function runFor(hit: () => Promise<unknown>, ms: number, concurrency: number): Promise<{ requests: number; ms: number }> {
  let requests = 0;
  const start = performance.now();
  const deadline = start + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await hit();
        requests += 1;
      }
    }),
  );
  return { requests, ms: performance.now() - start };
}

/** One side of a comparison timed by the clock: its name and one request (or the requests of one task). */
export interface Work {
  name: string;
  hit: () => Promise<unknown>;
}

/** A request to `url` (a GET, or a POST of fresh bodies) as one side of a comparison. */
export function requestTo(name: string, url: string, headers: Record<string, string> = {}, post?: Post): Work {
  return { name, hit: requester(name, url, headers, post) };
}

/**
 * Runs every side for `seconds` in all (`concurrency` clients, after a warm-up), in `turns` slices taken in turns, the
 * side going first swapped every turn. The shared machine drifts over a run: measured one after the other, the later
 * side would carry that drift alone.
 */
export async function measureSides(sides: Work[], seconds: number, turns = 5, concurrency = 4): Promise<Measurement[]> {
  for (const { hit } of sides) for (let i = 0; i < 3; i++) await hit();
  const done = sides.map(() => ({ requests: 0, ms: 0 }));
  for (let turn = 0; turn < turns; turn++) {
    const order = turn % 2 ? [...sides.keys()].reverse() : [...sides.keys()];
    for (const k of order) {
      const slice = await runFor(sides[k].hit, (seconds * 1000) / turns, concurrency);
      done[k] = { requests: done[k].requests + slice.requests, ms: done[k].ms + slice.ms };
    }
  }
  return sides.map(({ name }, k) => ({ name, requests: done[k].requests, seconds: done[k].ms / 1000, perSecond: done[k].requests / (done[k].ms / 1000) }));
}

/**
 * Makes exactly `requests` requests with `concurrency` clients (after `warmup` more), for writes that use up what they
 * write to; reports `items` per request a second (cables, say).
 */
export async function measureCount(
  name: string, url: string, requests: number, options: { headers?: Record<string, string>; concurrency?: number; warmup?: number; post: Post; items?: number; unit?: string },
): Promise<Measurement> {
  const hit = requester(name, url, options.headers ?? {}, options.post);
  for (let i = 0; i < (options.warmup ?? 3); i++) await hit();
  const elapsed = (await timeRequests(hit, requests, options.concurrency ?? 4)) / 1000;
  return { name, requests, seconds: elapsed, perSecond: (requests * (options.items ?? 1)) / elapsed, unit: options.unit };
}

/** Runs `count` requests with `concurrency` clients; answers the milliseconds they took. */
async function timeRequests(hit: () => Promise<void>, count: number, concurrency: number): Promise<number> {
  let left = count;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left -= 1;
        await hit();
      }
    }),
  );
  return performance.now() - start;
}

/** One side of a measurement in turns: where it POSTs, as whom, and its own bodies. */
export interface Side {
  name: string;
  url: string;
  headers?: Record<string, string>;
  post: Post;
}

/**
 * Times `requests` POSTs to each side (`concurrency` clients, after `warmup` requests each) in `rounds` turns, the
 * side going first swapped every round. A write changes what the next one meets (larger tables and indexes, the
 * autovacuum it sets off): measured one side after the other, the second side would always meet more.
 */
export async function measureInTurns(
  sides: Side[], requests: number, options: { rounds: number; concurrency?: number; warmup?: number; items?: number; unit?: string },
): Promise<Measurement[]> {
  const hits = sides.map((side) => requester(side.name, side.url, side.headers ?? {}, side.post));
  for (const hit of hits) for (let i = 0; i < (options.warmup ?? 3); i++) await hit();
  const elapsed = sides.map(() => 0);
  for (let round = 0; round < options.rounds; round++) {
    // This round's share of the requests: they add up to `requests`.
    const share = Math.floor(((round + 1) * requests) / options.rounds) - Math.floor((round * requests) / options.rounds);
    const order = round % 2 ? [...hits.keys()].reverse() : [...hits.keys()];
    for (const k of order) elapsed[k] += await timeRequests(hits[k], share, options.concurrency ?? 4);
  }
  return sides.map((side, k) => ({
    name: side.name, requests, seconds: elapsed[k] / 1000, perSecond: (requests * (options.items ?? 1)) / (elapsed[k] / 1000), unit: options.unit,
  }));
}

/** One scenario of the run: its measurements, each with its ratio to the baseline (the first). */
export interface ScenarioResult {
  scenario: string;
  rows: (Measurement & { ratio: number })[];
  /** SQL statements one Patchbay request runs, where counted. */
  statements?: number;
  /** The rows are a cost, not a rate (seconds to start, megabytes resident): the ratio is then baseline ÷ Patchbay. */
  lowerIsBetter?: boolean;
}

const results: ScenarioResult[] = [];

/** Prints a scenario's measurements and the ratio of each to the baseline (the first row), and keeps them for the summary. */
export function report(title: string, rows: Measurement[], extra: { statements?: number; lowerIsBetter?: boolean } = {}): void {
  const [baseline] = rows;
  const rated = rows.map((row) => ({ ...row, ratio: extra.lowerIsBetter ? baseline.perSecond / row.perSecond : row.perSecond / baseline.perSecond }));
  results.push({ scenario: title, rows: rated, ...extra });
  process.stdout.write(`\n${title}\n`);
  for (const row of rated) process.stdout.write(`  ${row.name.padEnd(44)} ${shown(row, extra.lowerIsBetter).padStart(16)}  ${row.ratio.toFixed(2)}× baseline\n`);
}

/** A measurement as read: a rate (`812 req/s`), or a cost in its unit (`3.1 s`, `180 MB`). */
function shown(m: Measurement, cost = false): string {
  const value = m.perSecond >= 100 ? m.perSecond.toFixed(0) : m.perSecond.toPrecision(3);
  return cost ? `${value} ${m.unit ?? ''}` : `${value} ${m.unit ?? 'req'}/s`;
}

/**
 * Prints every scenario of the run as one table (Patchbay's first row against the baseline; further rows as their
 * own lines) and writes it, with the machine it ran on, to `file` (bench/results.json).
 */
export async function summary(file: string, machine: Record<string, unknown>): Promise<void> {
  const { readFile, writeFile } = await import('node:fs/promises');
  const lines = ['| Scenario | Baseline | Patchbay | Ratio | SQL statements |', '|---|---|---|---|---|'];
  for (const { scenario, rows, statements, lowerIsBetter } of results) {
    const [baseline, ...others] = rows;
    for (const row of others) {
      const name = others.length > 1 ? `${scenario}: ${row.name}` : scenario;
      lines.push(`| ${name} | ${shown(baseline, lowerIsBetter)} | ${shown(row, lowerIsBetter)} | ${row.ratio.toFixed(2)}× | ${statements ?? ''} |`);
    }
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  // The scale bench's table (`npm run bench:scale`) stays beside this run's.
  const { scale } = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as { scale?: unknown };
  await writeFile(file, `${JSON.stringify({ ...machine, scenarios: results, scale }, null, 2)}\n`);
  process.stdout.write(`\nWritten to ${file}\n`);
}
