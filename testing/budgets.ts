import type { TestPatchbay } from './server.js';

/** The page sizes a list's statement count must not depend on. */
export const PAGE_SIZES = [1, 50, 1000];

/** Runs of each count: the fewest is the request's own (see `listStatements`). */
const RUNS = 3;

/**
 * The SQL statements of one GET of `path` at each page size (with `brief`, of its brief form); each must answer 200.
 * The count is the server process's, so background work in it (the PostgreSQL queue's polling, a webhook being
 * sent) can add to one run, never take away: each is the fewest of three runs. One GET first is not counted: the
 * first read after a write fills what the server caches (custom fields, say).
 */
export async function listStatements(kit: TestPatchbay, path: string, options: { brief?: boolean } = {}): Promise<number[]> {
  const url = (limit: number) => `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${options.brief ? '&brief=1' : ''}`;
  const get = async (limit: number) => {
    const reply = await kit.get(url(limit));
    if (reply.status !== 200) throw new Error(`patchbay/testing: GET ${url(limit)} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  };
  await get(PAGE_SIZES[0]);
  const counts: number[] = [];
  for (const limit of PAGE_SIZES) {
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await kit.countQueries(() => get(limit)));
    counts.push(Math.min(...runs));
  }
  return counts;
}

/** Fails unless a page of `path` takes `budget` statements at every page size: a list's cost flat in its length. */
export async function expectListBudget(kit: TestPatchbay, path: string, budget: number, options: { brief?: boolean } = {}): Promise<void> {
  const counts = await listStatements(kit, path, options);
  if (counts.some((n) => n !== budget)) {
    throw new Error(`patchbay/testing: GET ${path}${options.brief ? ' (brief)' : ''} ran ${counts.join(', ')} statements at page sizes ${PAGE_SIZES.join(', ')}; its budget is ${budget}`);
  }
}

/** Fails unless `action` (a write, say) runs exactly `budget` statements; answers what the action answered. */
export async function expectQueries<T>(kit: TestPatchbay, budget: number, action: () => Promise<T>): Promise<T> {
  let result!: T;
  const count = await kit.countQueries(async () => {
    result = await action();
  });
  if (count !== budget) throw new Error(`patchbay/testing: ran ${count} statements; the budget is ${budget}`);
  return result;
}
