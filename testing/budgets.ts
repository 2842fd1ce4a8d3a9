import type { TestPatchbay } from './server.js';

/** The page sizes a list's statement count must not depend on. */
export const PAGE_SIZES = [1, 50, 1000];

/** The SQL statements of one GET of `path` at each page size (with `brief`, of its brief form); each must answer 200. */
export async function listStatements(kit: TestPatchbay, path: string, options: { brief?: boolean } = {}): Promise<number[]> {
  const counts: number[] = [];
  for (const limit of PAGE_SIZES) {
    const url = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${options.brief ? '&brief=1' : ''}`;
    counts.push(await kit.countQueries(async () => {
      const reply = await kit.get(url);
      if (reply.status !== 200) throw new Error(`patchbay/testing: GET ${url} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
    }));
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
