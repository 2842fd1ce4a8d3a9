import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { Random } from './generate.js';

/**
 * What every fuzz file shares: the seed, the request sender that records 5xx answers, hangs and leaks, the failure
 * report that prints the seed (FUZZ_SEED=<seed> replays a file), and snapshots that tell whether a refused request
 * changed anything.
 */

export const TIMEOUT_MS = 15_000;
/** Requests in flight at once. */
export const WAVE = 8;

/** What an answer must never contain: SQL, database error texts, stack frames, source paths. */
export const LEAKS = [
  /syntax error at or near/i, /violates .* constraint/i, /duplicate key value/i, /invalid input syntax/i, /operator does not exist/i,
  /current transaction is aborted/i, /relation "[^"]+" does not exist/i, /column "[^"]+" (does not exist|of relation)/i,
  /\binsert into "/i, /\bselect "[^"]*"\./i, /knex/i, /QueryBuilder/, /\n\s+at .+\(.+:\d+:\d+\)/, /node_modules/, /\/kernel\/[\w/-]+\.ts/,
];

export interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Failure extends Sent {
  why: string;
  status?: number;
  answer?: string;
}

export interface Answer {
  /** 0 when no answer came. */
  status: number;
  text: string;
  /** The parsed JSON body, undefined when it is not JSON. */
  json: unknown;
  headers?: Headers;
}

export const json = (value: unknown): string => JSON.stringify(value);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One fuzz file's run: its seed and random source, the server it targets, the requests sent and what failed. */
export class Fuzz {
  readonly seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
  readonly r = new Random(this.seed);
  readonly failures: Failure[] = [];
  sent = 0;
  private server?: TestServer;

  /** `file`: the test file, named in the replay command. `leaks`: patterns no answer may show. */
  constructor(private readonly file: string, private readonly leaks: RegExp[] = LEAKS) {}

  get t(): TestServer {
    if (!this.server) throw new Error('Fuzz.target() was not called');
    return this.server;
  }

  target(t: TestServer): void {
    this.server = t;
  }

  fail(req: Sent, why: string, answer?: { status: number; text: string }): void {
    this.failures.push({ ...req, why, ...(answer ? { status: answer.status, answer: answer.text.slice(0, 300) } : {}) });
  }

  /** Checks an answer got some other way (raw sockets): no 5xx, no leak. */
  check(req: Sent, answer: { status: number; text: string }): void {
    if (answer.status >= 500) this.fail(req, 'server error', answer);
    const leak = this.leaks.find((p) => p.test(answer.text));
    if (leak) this.fail(req, `answer shows ${leak}`, answer);
  }

  /** Sends one request (as the admin unless told otherwise; null: anonymous); records a 5xx, a leak or a hang. */
  async send(req: Sent, token: string | null = this.t.admin.token): Promise<Answer> {
    this.sent += 1;
    const headers: Record<string, string> = { Accept: 'application/json', ...(token ? { Authorization: `Token ${token}` } : {}), ...req.headers };
    if (req.body !== undefined) headers['Content-Type'] ??= 'application/json';
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
    try {
      const res = await fetch(this.t.base + req.path, { method: req.method, headers, body: req.body, redirect: 'manual', signal: abort.signal });
      const text = await res.text();
      this.check(req, { status: res.status, text });
      return { status: res.status, text, json: parse(text), headers: res.headers };
    } catch (err) {
      this.fail(req, abort.signal.aborted ? `no answer within ${TIMEOUT_MS} ms` : `request failed: ${(err as Error).message}`);
      return { status: 0, text: '', json: undefined };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs `count` generated requests, WAVE at a time. */
  async waves(count: number, make: () => Promise<unknown>): Promise<void> {
    for (let done = 0; done < count; done += WAVE) await Promise.all(Array.from({ length: Math.min(WAVE, count - done) }, make));
  }

  /** Fails the running test when a request since the last verify() failed, with the report as its message. */
  verify(): void {
    const failures = this.failures.splice(0);
    // The whys alone in the diff: the report above them shows the requests, shortened.
    expect(failures.map((x) => x.why), this.report(failures)).toEqual([]);
  }

  /** The seed, the replay command and the first failures: the message of the final assertion. */
  report(failures = this.failures): string {
    const shown = failures.slice(0, 12).map(
      (f) => `  ${f.why}: ${f.method} ${f.path}${f.body ? ` body=${f.body.slice(0, 200)}` : ''}${f.headers ? ` headers=${json(f.headers)}` : ''}${f.status ? ` → ${f.status} ${f.answer}` : ''}`,
    );
    return `fuzz seed ${this.seed} (replay: FUZZ_SEED=${this.seed} npm test -- ${this.file}), ${failures.length} failures of ${this.sent} requests:\n${shown.join('\n')}`;
  }

  /**
   * The lists at `paths` as the admin reads them through the REST API: their counts, or (`full`) every object.
   * Two equal snapshots: nothing those lists show changed in between.
   */
  async snapshot(paths: string[], full = false): Promise<string> {
    const parts = await Promise.all(
      paths.map(async (path) => {
        const res = await this.t.get(`${path}?${full ? 'limit=0&ordering=id' : 'limit=1'}`);
        if (res.status !== 200) throw new Error(`snapshot of ${path}: ${res.status} ${res.text.slice(0, 200)}`);
        return [path, full ? res.body.results : res.body.count];
      }),
    );
    return json(Object.fromEntries(parts));
  }

  /**
   * Row counts, latest changes and side data of every model (but the tables in `except`), from the database: what a
   * refused request must leave as it was.
   */
  async fingerprint(except: string[] = []): Promise<string> {
    const { db, registry } = this.t.server;
    const parts = registry.all().filter((m) => !except.includes(m.table)).map((m) => `select '${m.table}' as t, count(*)::int as n, max(last_updated)::text as m from "${m.table}"`);
    parts.push(`select 'tags', count(*)::int, max(id)::text from extras_taggeditem`, `select 'cf', count(*)::int, md5(string_agg(data::text, ',' order by object_type_id, object_id)) from extras_customfielddata`);
    const { rows } = await db.knex.raw(parts.join(' union all '));
    return json(rows);
  }
}
