/** How long a scrape, a status or readiness check or a shutdown waits for Redis (which queues commands while it is away) or PostgreSQL before going on without it. */
const WAIT_MS = 2000;

/** What `withinWait` fails with once its time is up. */
export class NoAnswer extends Error {
  constructor() {
    super(`no answer within ${WAIT_MS} ms`);
  }
}

/** `work`, or a NoAnswer once WAIT_MS passed: a scrape or a status check must answer while Redis is away, when it matters most. */
export function withinWait<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new NoAnswer()), WAIT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
