export interface Measurement {
  name: string;
  requests: number;
  seconds: number;
  perSecond: number;
}

/** A POST to measure: a fresh body for every request. */
export interface Post {
  body: () => unknown;
  status: number;
}

/** Requests `url` with `concurrency` clients for `seconds` (after a short warm-up) and reports requests/s. */
export async function measure(
  name: string, url: string, seconds: number, headers: Record<string, string> = {}, concurrency = 4, post?: Post,
): Promise<Measurement> {
  const hit = async () => {
    const init: RequestInit = post
      ? { method: 'POST', body: JSON.stringify(post.body()), headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...headers } }
      : { headers: { Accept: 'application/json', ...headers } };
    const res = await fetch(url, init);
    if (res.status !== (post?.status ?? 200)) throw new Error(`${name}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
    await res.arrayBuffer();
  };
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
  return { name, requests, seconds: elapsed, perSecond: requests / elapsed };
}

/** Prints a scenario's measurements and the ratio of each to the baseline (the first row). */
export function report(title: string, rows: Measurement[]): void {
  const [baseline] = rows;
  process.stdout.write(`\n${title}\n`);
  for (const row of rows) {
    const ratio = row.perSecond / baseline.perSecond;
    process.stdout.write(`  ${row.name.padEnd(44)} ${row.perSecond.toFixed(1).padStart(9)} req/s  ${ratio.toFixed(2)}× baseline\n`);
  }
}
