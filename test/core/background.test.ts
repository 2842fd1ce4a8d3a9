import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type Body, type TestServer, type TestUser } from '../helpers/server.js';
import { until } from '../helpers/wait.js';

let t: TestServer;
let staff: TestUser;
const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  t = await startServer({ plugins: ['./test/fixtures/plugins/chores.ts'], settings: { WEBHOOK_RETRY_DELAY: 50, WEBHOOK_ATTEMPTS: 2 } });
  staff = await t.createUser('staffer');
  await t.server.db.knex('users_user').where('id', staff.id).update({ is_staff: true });
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});
beforeEach(async () => {
  for (const path of ['/api/extras/event-rules/', '/api/extras/webhooks/']) {
    const ids = (await t.get(`${path}?limit=0`)).body.results.map((r: Body) => ({ id: r.id }));
    if (ids.length) expect((await t.request('DELETE', path, { body: ids })).status).toBe(204);
  }
  receiver.requests.length = 0;
  receiver.answer = () => 200;
});

const tasks = async (status?: string) =>
  ((await t.get('/api/core/background-tasks/?limit=0')).body.results as Body[]).filter((task) => !status || task.status === status);

/** A webhook for tenant events of the given types, to the receiver. */
async function hook(eventTypes: string[]): Promise<void> {
  const { body: webhook } = await t.post('/api/extras/webhooks/', { name: `hook ${Math.random()}`, payload_url: `${receiver.url}/` });
  const rule = await t.post('/api/extras/event-rules/', {
    name: `rule ${Math.random()}`, object_types: ['tenancy.tenant'], event_types: eventTypes, action_object_type: 'extras.webhook', action_object_id: webhook.id,
  });
  expect(rule.status, rule.text).toBe(201);
}

describe('background queues, workers and tasks', () => {
  it('are for staff users only', async () => {
    const plain = await t.createUser('plain');
    // A superuser who is not staff is refused too (NetBox's IsAdminUser).
    const boss = await t.createUser('boss', { superuser: true });
    await t.server.db.knex('users_user').where('id', boss.id).update({ is_staff: false });
    for (const path of ['/api/core/background-queues/', '/api/core/background-workers/', '/api/core/background-tasks/', '/api/core/background-queues/default/']) {
      expect((await t.get(path, { token: plain.token })).status).toBe(403);
      expect((await t.get(path, { token: boss.token })).status).toBe(403);
      expect((await t.get(path, { token: null })).status).toBe(403);
      expect((await t.get(path, { token: staff.token })).status).toBe(200);
    }
    expect((await t.post('/api/core/background-tasks/x/requeue/', undefined, { token: plain.token })).status).toBe(403);
  });

  it('list the queue and this server as its worker, with the reference fields', async () => {
    const queues = await t.get('/api/core/background-queues/');
    expect(queues.body).toMatchObject({ count: 1, next: null, previous: null });
    expect(Object.keys(queues.body.results[0]).sort()).toEqual(
      ['deferred_jobs', 'failed_jobs', 'finished_jobs', 'index', 'jobs', 'name', 'oldest_job_timestamp', 'scheduled_jobs', 'scheduler_pid', 'started_jobs', 'url', 'workers'].sort(),
    );
    expect(queues.body.results[0]).toMatchObject({ name: 'default', url: `${t.base}/api/core/background-queues/default/`, workers: 1 });
    expect((await t.get('/api/core/background-queues/default/')).body.name).toBe('default');
    expect((await t.get('/api/core/background-queues/high/')).status).toBe(404);

    const workers = (await t.get('/api/core/background-workers/')).body;
    expect(workers.count).toBe(1);
    const [worker] = workers.results;
    expect(worker).toMatchObject({ state: expect.stringMatching(/^(idle|busy)$/), queue_names: ['default'], pid: String(process.pid) });
    expect(Object.keys(worker).sort()).toEqual(
      ['birth_date', 'failed_job_count', 'name', 'pid', 'queue_names', 'state', 'successful_job_count', 'total_working_time', 'url'].sort(),
    );
    expect((await t.get(worker.url.replace(t.base, ''))).body.name).toBe(worker.name);
    expect((await t.get('/api/core/background-workers/nobody/')).status).toBe(404);

    const root = (await t.get('/api/core/')).body;
    expect(Object.keys(root)).toEqual(['background-queues', 'background-tasks', 'background-workers', 'jobs', 'object-changes']);
    expect(root['background-tasks']).toBe(`${t.base}/api/core/background-tasks/`);
  });

  it('show a failed delivery with its error log; requeue runs it again; delete, stop and unknown ids answer as NetBox', async () => {
    await hook(['object_created']);
    receiver.answer = () => 500;
    const tenant = (await t.post('/api/tenancy/tenants/', { name: 'Failing', slug: 'failing' })).body;
    await until(async () => (await tasks('failed')).length === 1, 10_000, 'a failed task');
    const [failed] = await tasks('failed');
    expect(failed).toMatchObject({
      func_name: 'extras.deliver_webhook', origin: 'default', is_failed: true, is_finished: false,
      meta: { attempts: 2, attempts_made: 2, errors: [expect.stringContaining('Status 500 returned'), expect.stringContaining('Status 500 returned')] },
    });
    expect(failed.url).toBe(`${t.base}/api/core/background-tasks/${failed.id}/`);
    expect(Object.keys(failed)).toEqual([
      'id', 'url', 'description', 'origin', 'func_name', 'args', 'kwargs', 'result', 'timeout', 'result_ttl', 'created_at', 'enqueued_at',
      'started_at', 'ended_at', 'worker_name', 'position', 'status', 'meta', 'last_heartbeat', 'is_finished', 'is_queued', 'is_failed',
      'is_started', 'is_deferred', 'is_canceled', 'is_scheduled', 'is_stopped',
    ]);
    expect((await t.get(`/api/core/background-tasks/${failed.id}/`)).body.status).toBe('failed');
    expect((await t.get('/api/core/background-queues/default/')).body.failed_jobs).toBe(1);
    const [delivery] = (await t.get(`/api/extras/webhook-deliveries/?object_id=${tenant.id}`)).body.results;
    expect(delivery).toMatchObject({ status: { value: 'failed' } });

    // Staff requeue it through the API; the receiver now answers 200.
    receiver.answer = () => 200;
    const requeued = await t.post(`/api/core/background-tasks/${failed.id}/requeue/`, undefined, { token: staff.token });
    expect(requeued.status).toBe(200);
    expect(requeued.text).toBe('');
    await until(async () => (await t.get(`/api/extras/webhook-deliveries/${delivery.id}/`)).body.status.value === 'delivered', 10_000, 'delivered');
    expect((await t.get(`/api/extras/webhook-deliveries/${delivery.id}/`)).body.attempts).toHaveLength(3);
    // Two refused attempts, then the requeued one.
    expect(receiver.requests.map((r) => r.headers['x-patchbay-delivery'])).toEqual([String(delivery.id), String(delivery.id), String(delivery.id)]);
    await until(async () => (await t.get(`/api/core/background-tasks/${failed.id}/`)).body.status === 'finished');

    // Only a failed job can be requeued; a job that is not running is not stopped.
    const again = await t.post(`/api/core/background-tasks/${failed.id}/requeue/`, undefined);
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe(`Job ${failed.id} is finished: only a failed job can be requeued.`);
    expect((await t.post(`/api/core/background-tasks/${failed.id}/stop/`, undefined)).status).toBe(204);
    expect((await t.post(`/api/core/background-tasks/${failed.id}/delete/`, undefined)).status).toBe(200);
    for (const action of ['', 'delete/', 'requeue/', 'enqueue/', 'stop/']) {
      const res = action ? await t.post(`/api/core/background-tasks/${failed.id}/${action}`, undefined) : await t.get(`/api/core/background-tasks/${failed.id}/`);
      expect(res.status, action).toBe(404);
      expect(res.body.detail).toBe(`Job ${failed.id} not found.`);
    }
  });
});

describe('tracked jobs (/api/core/jobs/)', () => {
  const audit = (tenant: number, outcome: string, extra: Record<string, unknown> = {}) =>
    t.post('/api/plugins/chores/audits/', { tenant, outcome, ...extra });
  const job = async (id: number) => (await t.get(`/api/core/jobs/${id}/`)).body;
  const ended = (id: number) => until(async () => ['completed', 'failed', 'errored'].includes((await job(id)).status.value), 10_000, `job ${id} ended`);

  it('record a plugin job about an object: its status, times, result and log; job events reach event rules', async () => {
    await hook(['job_started', 'job_completed']);
    const tenant = (await t.post('/api/tenancy/tenants/', { name: 'Audited', slug: 'audited' })).body;
    const made = await audit(tenant.id, 'ok');
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ object_type: 'tenancy.tenant', object_id: tenant.id, name: 'chores.audit', status: { value: 'pending' }, user: { username: 'admin' } });
    await ended(made.body.id);
    const done = await job(made.body.id);
    expect(Object.keys(done)).toEqual([
      'id', 'url', 'display_url', 'display', 'object_type', 'object_id', 'object', 'name', 'status', 'scheduled', 'interval',
      'started', 'completed', 'user', 'data', 'error', 'job_id', 'log_entries', 'created', 'last_updated',
    ]);
    expect(done).toMatchObject({
      status: { value: 'completed', label: 'Completed' }, data: { checked: 3 }, error: '', object: { id: tenant.id, name: 'Audited' },
      job_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      log_entries: [{ level: 'info', message: 'Auditing the tenant' }, { level: 'warning', message: 'One thing to look at' }],
    });
    expect(Date.parse(done.completed)).toBeGreaterThanOrEqual(Date.parse(done.started));
    expect((await t.get(`/api/core/jobs/?object_id=${tenant.id}&status=completed`)).body.count).toBe(1);
    expect((await t.get(`/api/core/jobs/${done.id}/?brief=1`)).body).toEqual({
      id: done.id, url: done.url, display: 'chores.audit', created: done.created, completed: done.completed, user: done.user, status: done.status,
    });

    await until(() => receiver.requests.length === 2, 10_000, 'two job events');
    const events = receiver.requests.map((r) => JSON.parse(r.text) as Body).sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    expect(events.map((e) => e.event)).toEqual(['job_started', 'job_completed']);
    expect(events[1]).toMatchObject({ object_type: 'tenancy.tenant', username: 'admin', data: { id: done.id, status: { value: 'completed' }, data: { checked: 3 } } });
    // The job is read-only.
    expect((await t.request('DELETE', `/api/core/jobs/${done.id}/`)).status).toBe(405);
  });

  it("run from an action a plugin adds to another plugin's model, listed in the OpenAPI document with that model", async () => {
    const tenant = (await t.post('/api/tenancy/tenants/', { name: 'Acted on', slug: 'acted-on' })).body;
    const made = await t.post(`/api/tenancy/tenants/${tenant.id}/audit/`, {});
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ object_type: 'tenancy.tenant', object_id: tenant.id, name: 'chores.audit' });
    await ended(made.body.id);
    expect((await t.post('/api/tenancy/tenants/999999/audit/', {})).status).toBe(404);
    // The model's own routes are untouched.
    expect((await t.get(`/api/tenancy/tenants/${tenant.id}/`)).body.name).toBe('Acted on');
    const schema = (await t.get('/api/schema/?format=json')).body;
    expect(schema.paths['/api/tenancy/tenants/{id}/audit/'].post).toMatchObject({ summary: 'Audit this tenant', tags: ['tenancy'] });
  });

  it('end "errored" on an exception and "failed" on JobFailed, each with its event', async () => {
    await hook(['job_failed', 'job_errored']);
    const tenant = (await t.post('/api/tenancy/tenants/', { name: 'Troubled', slug: 'troubled' })).body;
    const errored = (await audit(tenant.id, 'error')).body;
    const failed = (await audit(tenant.id, 'fail')).body;
    await ended(errored.id);
    await ended(failed.id);
    expect(await job(errored.id)).toMatchObject({ status: { value: 'errored' }, error: 'Error: disk on fire' });
    expect(await job(failed.id)).toMatchObject({ status: { value: 'failed' }, error: '', log_entries: [{ level: 'info' }, { level: 'error', message: '2 problems found' }] });
    await until(() => receiver.requests.length === 2, 10_000, 'two job events');
    expect(receiver.requests.map((r) => JSON.parse(r.text).event).sort()).toEqual(['job_errored', 'job_failed']);
  });

  it('wait while scheduled; `enqueue` runs one now; an interval schedules the next run', async () => {
    const tenant = (await t.post('/api/tenancy/tenants/', { name: 'Later', slug: 'later' })).body;
    const made = (await audit(tenant.id, 'ok', { in_ms: 3_600_000, interval: 60 })).body;
    expect(made).toMatchObject({ status: { value: 'scheduled' }, interval: 60 });
    const task = (await tasks('scheduled')).find((s) => s.id === `job-${made.job_id}`);
    expect(task).toMatchObject({ func_name: 'core.run_job', description: 'chores.audit', is_scheduled: true });
    expect((await t.post(`/api/core/background-tasks/${task!.id}/enqueue/`, undefined)).status).toBe(200);
    await ended(made.id);
    expect((await job(made.id)).status.value).toBe('completed');
    const next = (await t.get(`/api/core/jobs/?object_id=${tenant.id}&status=scheduled`)).body.results;
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ name: 'chores.audit', interval: 60 });
    // One interval after the run's planned time, which was an hour away: about two hours from now.
    expect(Date.parse(next[0].scheduled) - Date.now()).toBeGreaterThan(100 * 60_000);
  });

  it('stop: a running job is stopped (200) and its task ends failed', async () => {
    const tenant = (await t.post('/api/tenancy/tenants/', { name: 'Slow', slug: 'slow' })).body;
    const made = (await audit(tenant.id, 'slow')).body;
    const id = `job-${made.job_id}`;
    await until(async () => (await t.get(`/api/core/background-tasks/${id}/`)).body.status === 'started', 10_000, 'started');
    expect((await t.post(`/api/core/background-tasks/${id}/stop/`, undefined)).status).toBe(200);
    const stopped = (await t.get(`/api/core/background-tasks/${id}/`)).body;
    expect(stopped).toMatchObject({ status: 'failed', is_failed: true, meta: { errors: [expect.stringContaining('Stopped by a user')] } });
    expect((await t.post(`/api/core/background-tasks/${id}/stop/`, undefined)).status).toBe(204);
  });

  it('include the daily system jobs (core and extras housekeeping); a run logs and returns what it did', async () => {
    const { results } = (await t.get('/api/core/jobs/?interval=1440&limit=0')).body;
    expect(results.map((j: Body) => j.name).sort()).toEqual(['core.housekeeping', 'extras.housekeeping']);
    expect(results.every((j: Body) => j.status.value === 'scheduled' && j.object === null)).toBe(true);
    await t.server.pluginContext('core').jobs.enqueue('core.housekeeping');
    await until(async () => (await t.get('/api/core/jobs/?name=core.housekeeping&status=completed')).body.count === 1);
    const [run] = (await t.get('/api/core/jobs/?name=core.housekeeping&status=completed')).body.results;
    expect(run.data).toEqual({ sessions: 0, jobs: 0 });
    expect(run.log_entries.map((e: Body) => e.message)).toEqual(['Deleted 0 expired sessions.', 'Deleted 0 jobs ended more than 90 days ago.']);

    // The extras one prunes the delivery log: a delivery that ended 40 days ago goes, the others stay.
    await hook(['object_created']);
    await t.post('/api/tenancy/tenants/', [{ name: 'Kept 1', slug: 'kept-1' }, { name: 'Kept 2', slug: 'kept-2' }]);
    await until(async () => (await t.get('/api/extras/webhook-deliveries/?status=delivered')).body.count === 2, 10_000, 'two deliveries');
    const knex = t.server.db.knex;
    const total = Number((await knex('extras_webhookdelivery').count({ n: '*' }))[0].n);
    const [old] = await knex('extras_webhookdelivery').whereNot('status', 'pending').orderBy('id').limit(1).pluck('id');
    await knex('extras_webhookdelivery').where('id', old).update({ completed: knex.raw("now() - interval '40 days'") });
    await t.server.pluginContext('extras').jobs.enqueue('extras.housekeeping');
    await until(async () => (await t.get('/api/core/jobs/?name=extras.housekeeping&status=completed')).body.count === 1);
    expect((await t.get('/api/core/jobs/?name=extras.housekeeping&status=completed')).body.results[0].data).toEqual({ changes: 0, deliveries: 1 });
    expect(Number((await knex('extras_webhookdelivery').count({ n: '*' }))[0].n)).toBe(total - 1);
    expect(await knex('extras_webhookdelivery').where('id', old).first()).toBeUndefined();
  });
});
