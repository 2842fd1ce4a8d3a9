export interface Measurement {
  name: string;
  requests: number;
  seconds: number;
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
export function measure(
  name: string, url: string, seconds: number, headers: Record<string, string> = {}, concurrency = 4, post?: Post,
): Promise<Measurement> {
  return measureWork(name, requester(name, url, headers, post), seconds, concurrency);
}

/** Runs `hit` (one request, or the several requests of one task) with `concurrency` clients for `seconds`, after a warm-up. */
export async function measureWork(name: string, hit: () => Promise<unknown>, seconds: number, concurrency = 4, unit?: string): Promise<Measurement> {
  for (let i = 0; i < 3; i++) await hit();
  let requests = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await hit();
        requests += 1;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { name, requests, seconds: elapsed, perSecond: requests / elapsed, unit };
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
  let left = requests;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency ?? 4 }, async () => {
      while (left > 0) {
        left -= 1;
        await hit();
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { name, requests, seconds: elapsed, perSecond: (requests * (options.items ?? 1)) / elapsed, unit: options.unit };
}

/** Prints a scenario's measurements and the ratio of each to the baseline (the first row). */
export function report(title: string, rows: Measurement[]): void {
  const [baseline] = rows;
  process.stdout.write(`\n${title}\n`);
  for (const row of rows) {
    const ratio = row.perSecond / baseline.perSecond;
    process.stdout.write(`  ${row.name.padEnd(44)} ${row.perSecond.toFixed(1).padStart(9)} ${row.unit ?? 'req'}/s  ${ratio.toFixed(2)}× baseline\n`);
  }
}
