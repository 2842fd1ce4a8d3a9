import type { PatchbayServer } from '../../kernel/server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../kernel/base/types.js';
import { startServer, type Reply, type TestServer } from './server.js';

/** SQL statements a full and a brief page of a list take. */
export type ListBudgets = Record<string, { full: number; brief: number }>;
/** A list with filters and the statements a page of it takes. */
export type FilteredBudgets = Record<string, { query: string; budget: number }>;

const PAGE_SIZES = [1, 50, 1000];
const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

/** Counts a request's statements at each page size (`SHOW_QUERIES=1` prints them, to set a new budget). */
async function countsAt(t: TestServer, label: string, url: (limit: number) => string, check: (body: { results: unknown[] }, limit: number) => void): Promise<number[]> {
  const counts: number[] = [];
  for (const limit of PAGE_SIZES) {
    counts.push(
      await t.countQueries(async () => {
        const res = await t.get(url(limit));
        expect(res.status, label).toBe(200);
        check(res.body, limit);
      }),
    );
  }
  if (process.env.SHOW_QUERIES) console.log(label, counts);
  return counts;
}

/**
 * Asserts each list takes the same number of SQL statements at page sizes 1, 50 and 1000, and that number: the
 * lists in `lists` full and brief, the filtered ones in `filtered`. `server` is read when the tests run.
 */
export function budgetSuite(title: string, server: () => TestServer, lists: ListBudgets, filtered: FilteredBudgets = {}): void {
  describe(title, () => {
    for (const [path, budget] of Object.entries(lists)) {
      for (const mode of ['full', 'brief'] as const) {
        it(`${path} (${mode}) runs ${budget[mode]} queries at page sizes 1, 50 and 1000`, async () => {
          const url = (limit: number) => withQuery(path, `limit=${limit}${mode === 'brief' ? '&brief=1' : ''}`);
          const counts = await countsAt(server(), `${path} ${mode}`, url, (body, limit) => expect(body.results).toHaveLength(limit));
          expect(counts).toEqual(PAGE_SIZES.map(() => budget[mode]));
        });
      }
    }
    for (const [path, { query, budget }] of Object.entries(filtered)) {
      it(`${path}?${query} runs ${budget} queries at page sizes 1, 50 and 1000`, async () => {
        const counts = await countsAt(server(), `${path}?${query}`, (limit) => withQuery(path, `${query}&limit=${limit}`), (body) => expect(body.results.length).toBeGreaterThan(0));
        expect(counts).toEqual(PAGE_SIZES.map(() => budget));
      });
    }
  });
}

/** SQL statements of one request, which must answer `status`. */
export async function writeStatements(t: TestServer, status: number, send: () => Promise<Reply>): Promise<{ count: number; reply: Reply }> {
  let reply: Reply | undefined;
  const count = await t.countQueries(async () => {
    reply = await send();
  });
  expect(reply!.status, String(JSON.stringify(reply!.body)).slice(0, 300)).toBe(status);
  return { count, reply: reply! };
}

/** Runs `write` for 1 and for 100 objects and expects the same statement count, `budget`. */
export async function expectFlatWrites(budget: number, write: (size: number) => Promise<number>): Promise<void> {
  const counts = [await write(1), await write(100)];
  if (process.env.SHOW_QUERIES) console.log(counts);
  expect(counts).toEqual([budget, budget]);
}

/** A server for a budget suite, filled by `seed` before the tests (rows straight in SQL), closed after them. */
export function seededServer(seed: (db: Db, server: PatchbayServer) => Promise<void>): () => TestServer {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer();
    await seed(t.server.db.knex, t.server);
  });
  afterAll(async () => {
    await t?.close();
  });
  return () => t;
}
