import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessQueue } from '../../kernel/queue/memory.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';

describe('the in-process queue (a server without Redis)', () => {
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
    expect(t.server.queue.kind).toBe('in-process');
    expect((await t.get('/api/status/')).body.queue).toEqual({ backend: 'in-process', status: 'ok' });
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
    expect(task).toMatchObject({ status: 'finished', meta: { attempts: 2, attempts_made: 1, errors: [expect.stringContaining('Status 500')] } });
    expect((await t.get('/api/core/background-workers/')).body.results).toMatchObject([{ pid: String(process.pid), queue_names: ['default'] }]);
  });
});

describe('InProcessQueue', () => {
  const queue = new InProcessQueue();
  afterAll(() => queue.close());

  it('has bull\'s semantics: unique ids, attempts with backoff, delays, requeue, stop and remove', async () => {
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

    await queue.enqueue('flaky', 'a', { id: 'a', attempts: 3, backoffMs: 10 });
    await queue.enqueue('flaky', 'a-again', { id: 'a', attempts: 3 });
    await until(async () => (await queue.task('a'))?.status === 'finished');
    expect(runs).toEqual(['a#1', 'a#2', 'a#3']);
    expect((await queue.task('a'))!.errors).toHaveLength(2);

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
    expect((await queue.workers())[0].state).toBe('busy');
    expect(await queue.stop('s')).toBe(true);
    release();
    await until(async () => (await queue.workers())[0].state === 'idle');
    expect((await queue.task('s'))!.status).toBe('stopped');
    expect(await queue.remove('s')).toBe(true);
    expect(await queue.task('s')).toBeUndefined();
    // A delay longer than a Node timer can wait (30 days) stays scheduled.
    await queue.enqueue('flaky', 'month', { id: 'month', delayMs: 30 * 24 * 3_600_000 });
    await new Promise((r) => setTimeout(r, 50));
    expect((await queue.task('month'))!.status).toBe('scheduled');
  });
});
