import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../kernel/base/log.js';
import { PostgresQueue, type RunAttempt } from '@patchbay/queue';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';

describe('the PostgreSQL queue (a server without Redis)', () => {
  let t: TestServer;
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
    t = await startServer({ settings: { REDIS_URL: undefined, WEBHOOK_ATTEMPTS: 2, WEBHOOK_RETRY_DELAY: 50 } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('delivers webhooks, retries, and shows its tasks and this process as its worker', async () => {
    expect(t.server.queue.kind).toBe('postgresql');
    expect((await t.get('/api/status/')).body.queue).toEqual({ backend: 'postgresql', status: 'ok' });
    const { body: webhook } = await t.post('/api/extras/webhooks/', { name: 'local', payload_url: `${receiver.url}/` });
    await t.post('/api/extras/event-rules/', {
      name: 'tenants', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: webhook.id,
    });
    let calls = 0;
    receiver.answer = () => (++calls === 1 ? 500 : 200);
    await t.post('/api/tenancy/tenants/', { name: 'Local', slug: 'local' });
    await until(async () => (await t.get('/api/extras/webhook-deliveries/?status=delivered')).body.count === 1, 10_000, 'delivered');
    expect(receiver.requests).toHaveLength(2);
    const [task] = (await t.get('/api/core/background-tasks/')).body.results.filter((x: { func_name: string }) => x.func_name === 'extras.deliver_webhook');
    expect(task).toMatchObject({ status: 'finished', meta: { attempts: 2, attempts_made: 2, errors: [expect.stringContaining('Status 500')] } });
    expect((await t.get('/api/core/background-workers/')).body.results).toMatchObject([{ pid: String(process.pid), queue_names: ['default'] }]);
  });
});

describe('a webhook delivery whose attempts never report back', () => {
  let t: TestServer;
  const never = createServer(() => undefined);
  beforeAll(async () => {
    await new Promise<void>((ok) => never.listen(0, '127.0.0.1', ok));
    t = await startServer({ settings: { REDIS_URL: undefined, WEBHOOK_ATTEMPTS: 2, WEBHOOK_RETRY_DELAY: 50, WEBHOOK_TIMEOUT: 60_000, JOB_LOCK_SECONDS: 2 } });
  });
  afterAll(async () => {
    await t?.close();
    never.closeAllConnections();
    never.close();
  });

  /** What the process running an attempt leaves when it dies: its claim, no longer renewed. */
  const die = () => t.server.db.knex('core_queuejob').where({ name: 'extras.deliver_webhook', status: 'started' })
    .update({ worker: 'a process that died', locked_until: t.server.db.knex.raw(`now() - interval '1 second'`) });

  it('logs each as the process ending, retries it, and fails the delivery after WEBHOOK_ATTEMPTS', async () => {
    const { port } = never.address() as { port: number };
    const { body: webhook } = await t.post('/api/extras/webhooks/', { name: 'unanswered', payload_url: `http://127.0.0.1:${port}/` });
    await t.post('/api/extras/event-rules/', {
      name: 'tenants', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: webhook.id,
    });
    await t.post('/api/tenancy/tenants/', { name: 'Lost', slug: 'lost' });
    const started = async (n: number) => (await t.server.db.knex('core_queuejob').where({ name: 'extras.deliver_webhook', status: 'started', attempts_made: n })).length === 1;
    await until(() => started(1), 10_000, 'attempt 1 under way');
    await die();
    await until(() => started(2), 20_000, 'attempt 2 under way');
    await die();
    await until(async () => (await t.get('/api/extras/webhook-deliveries/?status=failed')).body.count === 1, 20_000, 'the delivery failed');
    const [delivery] = (await t.get('/api/extras/webhook-deliveries/')).body.results;
    const lost = (n: number) => ({ attempt: n, started: null, duration_ms: null, status_code: null, response: null,
      error: `The process sending attempt ${n} ended before it finished (killed, out of memory, or stopped answering).` });
    expect(delivery.attempts).toEqual([lost(1), lost(2)]);
    const [task] = (await t.get('/api/core/background-tasks/')).body.results.filter((x: { func_name: string }) => x.func_name === 'extras.deliver_webhook');
    expect(task).toMatchObject({ status: 'failed', meta: { attempts: 2, attempts_made: 2 } });
    expect(task.meta.errors).toEqual([1, 2].map((n) => `Attempt ${n} of 2 did not finish: the process running it ended (killed, out of memory) or stopped answering.`));
  }, 60_000);
});

describe('PostgresQueue', () => {
  let t: TestServer;
  const log = createLogger('error', 'text');
  const queues: PostgresQueue[] = [];
  const open = (lockSeconds = 30) => {
    const queue = new PostgresQueue({ knex: t.server.db.knex, log, lockSeconds });
    queues.push(queue);
    return queue;
  };
  beforeAll(async () => {
    t = await startServer({ settings: { REDIS_URL: undefined, RUN_JOBS: false } });
  });
  // Every process working a queue runs every job of it: each test's processes stop before the next test's start.
  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.close();
  });
  afterAll(() => t?.close());

  it("has bull's semantics: unique ids, attempts with doubling backoff, delays, requeue, stop and remove", async () => {
    const queue = open();
    const runs: string[] = [];
    let release: () => void = () => undefined;
    queue.handle('flaky', (data, run) => {
      runs.push(`${String(data)}#${run.attempt}`);
      if (!run.final) throw new Error(`attempt ${run.attempt} failed`);
    });
    queue.handle('slow', () => new Promise<void>((ok) => (release = ok)));
    queue.handle('fails', () => {
      throw new Error('always');
    });
    await queue.work(4);

    // Each retry waits twice as long as the one before: the waits the failures set are 1x and 2x the backoff.
    const waits: number[] = [];
    const watch = setInterval(() => void t.server.db.knex.raw(
      `select extract(epoch from run_at - enqueued) * 1000 as wait from core_queuejob where id = 'a' and status = 'queued' and attempts_made > 0`,
    ).then(({ rows }: { rows: { wait: string }[] }) => rows.forEach((r) => waits.includes(Math.round(Number(r.wait))) || waits.push(Math.round(Number(r.wait))))), 5);
    await queue.enqueue('flaky', 'a', { id: 'a', attempts: 3, backoffMs: 300 });
    await queue.enqueue('flaky', 'a-again', { id: 'a', attempts: 3 });
    await until(async () => (await queue.task('a'))?.status === 'finished');
    clearInterval(watch);
    expect(runs).toEqual(['a#1', 'a#2', 'a#3']);
    expect(waits).toEqual([300, 600]);
    const errors = (await queue.task('a'))!.errors;
    expect(errors).toHaveLength(2);
    // No local path in the error log.
    expect(errors.join('\n')).not.toContain(process.cwd());

    await queue.enqueue('flaky', 'later', { id: 'later', delayMs: 60_000 });
    expect((await queue.task('later'))!.status).toBe('scheduled');
    expect(await queue.promote('later')).toBe(true);
    await until(async () => (await queue.task('later'))?.status === 'finished');

    await queue.enqueue('fails', null, { id: 'f' });
    await until(async () => (await queue.task('f'))?.status === 'failed');
    expect((await queue.stats()).failed).toBe(1);
    expect(await queue.requeue('a')).toBe(false);
    expect(await queue.requeue('f')).toBe(true);
    await until(async () => (await queue.task('f'))?.status === 'failed' && (await queue.task('f'))!.errors.length === 2);

    await queue.enqueue('slow', null, { id: 's' });
    await until(async () => (await queue.task('s'))?.status === 'started');
    expect((await queue.workers()).find((w) => w.pid === process.pid)!.state).toBe('busy');
    expect(await queue.stop('s')).toBe(true);
    release();
    await until(async () => (await queue.task('s'))?.status === 'failed');
    expect((await queue.task('s'))!.errors).toEqual(['Stopped by a user']);
    expect(await queue.remove('s')).toBe(true);
    expect(await queue.task('s')).toBeUndefined();
  });

  it('hands each job to exactly one of several processes, recovery at start included', async () => {
    const seen = new Map<string, number>();
    const workers = [open(), open(), open()];
    for (const queue of workers) {
      queue.handle('once', async (data) => {
        seen.set(String(data), (seen.get(String(data)) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 5));
      });
    }
    await Promise.all(workers.map((q) => q.work(5)));
    // Every process enqueues the same durable work at once, as each does at start.
    const jobs = Array.from({ length: 200 }, (_, n) => ({ data: `job-${n}`, options: { id: `once-${n}` } }));
    await Promise.all(workers.map((q) => q.enqueueAll('once', jobs)));
    await until(() => seen.size === 200, 20_000, 'every job ran');
    await new Promise((r) => setTimeout(r, 1500));
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  });

  it('renews the lock of a job that runs longer than a lock lasts: another process never takes it', async () => {
    const runs: number[] = [];
    const [one, other] = [open(2), open(2)];
    for (const queue of [one, other]) {
      queue.handle('long', async (_data, run) => {
        runs.push(run.attempt);
        await new Promise((r) => setTimeout(r, 5000));
      });
    }
    await one.work(1);
    await one.enqueue('long', null, { id: 'long', attempts: 3 });
    await until(async () => (await one.task('long'))?.status === 'started');
    // Past the first lock's time, the other process starts and looks for attempts whose lock ran out.
    await new Promise((r) => setTimeout(r, 3000));
    await other.work(1);
    await until(async () => (await one.task('long'))?.status === 'finished', 15_000, 'the long job');
    expect(runs).toEqual([1]);
    expect((await one.task('long'))!.errors).toEqual([]);
  });

  it('counts an attempt whose process died, retries it with backoff, and fails the job once none is left', async () => {
    // A process that claims a job and dies: its queue stops without ending the run.
    const abandonedRuns: RunAttempt[] = [];
    const dying = open(2);
    const hang = () => new Promise<void>(() => undefined);
    const abandoned = (_data: unknown, run: RunAttempt) => void abandonedRuns.push(run);
    dying.handle('crashes', hang, abandoned);
    await dying.enqueue('crashes', { n: 1 }, { id: 'crash', attempts: 2, backoffMs: 100 });
    await dying.work(1);
    await until(async () => (await dying.task('crash'))?.status === 'started');
    // Another process finds its lock run out, counts the attempt and tells the handler; the job runs again.
    await t.server.db.knex('core_queuejob').where('id', 'crash').update({ locked_until: t.server.db.knex.raw(`now() - interval '1 second'`), worker: 'gone' });
    const survivor = open(2);
    survivor.handle('crashes', hang, abandoned);
    await survivor.work(1);
    await until(() => abandonedRuns.length === 1, 15_000, 'the first abandoned attempt');
    expect(abandonedRuns[0]).toEqual({ attempt: 1, attempts: 2, final: false });
    await until(async () => (await survivor.task('crash'))?.attemptsMade === 2, 15_000, 'the second attempt');
    await t.server.db.knex('core_queuejob').where('id', 'crash').update({ locked_until: t.server.db.knex.raw(`now() - interval '1 second'`), worker: 'gone' });
    await until(() => abandonedRuns.length === 2, 15_000, 'the second abandoned attempt');
    expect(abandonedRuns[1]).toEqual({ attempt: 2, attempts: 2, final: true });
    // The handler is told inside the transaction that then fails the job: the row changes at its commit.
    await until(async () => (await survivor.task('crash'))?.status !== 'started', 15_000, 'the job settled');
    const task = await survivor.task('crash');
    expect(task).toMatchObject({ status: 'failed', attemptsMade: 2 });
    expect(task!.errors).toEqual([expect.stringContaining('Attempt 1 of 2 did not finish'), expect.stringContaining('Attempt 2 of 2 did not finish')]);
  });
});
