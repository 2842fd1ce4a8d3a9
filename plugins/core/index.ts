import { Services, definePlugin, provide, serviceToken, type PluginContext } from 'patchbay';
import { backgroundRoutes } from './background.js';
import { coreHousekeeping } from './housekeeping.js';
import { JobRunner } from './jobs.js';
import { Job } from './models/job.js';
import { TASKS_PAGE, tasksPage } from './tasks-page.js';
import { taskSubjects } from './task-subjects.js';

const action = (summary: string) => ({ summary, responses: { '200': { description: 'Done' } } });

/** This server's job runner: the `jobs` service others see, and what this app schedules and recovers with. */
const RUNNER = serviceToken<JobRunner>('core.runner');
const runnerOf = (ctx: PluginContext) => ctx.services.get(RUNNER);

/** Retries of the waiting jobs' enqueueing while the queue does not answer (Redis down at start). */
const recovering = new WeakMap<PluginContext, NodeJS.Timeout>();

/** Enqueues the tracked jobs waiting; while the queue is down, again every 10 s until it answers. */
async function recoverJobs(ctx: PluginContext): Promise<void> {
  try {
    await runnerOf(ctx).recover();
  } catch (err) {
    ctx.log.warn(`The waiting jobs could not be queued (${(err as Error).message}); trying again in 10 s`);
    const timer = setTimeout(() => void recoverJobs(ctx), 10_000);
    timer.unref();
    recovering.set(ctx, timer);
  }
}

/**
 * NetBox's core app: tracked jobs (the `jobs` service behind every plugin's `ctx.jobs`, their records and their
 * system schedules), and the background queue, its workers and its tasks (staff only), in the API and on a page.
 */
export default definePlugin({
  name: 'core',
  label: 'Core',
  version: '0.1.0',
  kernel: '*',
  basePath: '/api/core/',
  dependencies: ['users'],
  models: [Job],
  migrations: new URL('./migrations/', import.meta.url),
  provides: [
    provide(RUNNER, (ctx) => new JobRunner({
      knex: ctx.db, attempts: ctx.settings.JOB_ATTEMPTS, retryDelayMs: ctx.settings.JOB_RETRY_DELAY, queue: ctx.queue,
      outbox: ctx.services.get(Services.events), registry: ctx.registry, log: ctx.log, clock: ctx.services.get(Services.clock),
      render: async (row) => (await ctx.system.render(Job, [row]))[0],
    })),
    provide(Services.jobs, runnerOf),
  ],
  routes: backgroundRoutes,
  jobs: { housekeeping: coreHousekeeping },
  schedule: { housekeeping: 1440 },
  operations: {
    'GET /background-queues/': { summary: 'The background queues and their counts (staff only)' },
    'GET /background-queues/{name}/': { summary: 'One background queue (staff only)' },
    'GET /background-workers/': { summary: 'The processes working the queue (staff only)' },
    'GET /background-workers/{name}/': { summary: 'One worker (staff only)' },
    'GET /background-tasks/': { summary: 'Every job in the queue, whatever its status (staff only)' },
    'GET /background-tasks/{name}/': { summary: 'One job, with its error log in meta.errors (staff only)' },
    'POST /background-tasks/{name}/delete/': action('Delete the job'),
    'POST /background-tasks/{name}/requeue/': action('Put a failed job back in the queue'),
    'POST /background-tasks/{name}/enqueue/': action('Put a scheduled, deferred or failed job in the queue now'),
    'POST /background-tasks/{name}/stop/': { ...action('Stop a running job'), responses: { '200': { description: 'Stopped' }, '204': { description: 'It was not running' } } },
  },
  http(surface, ctx) {
    surface.mount(TASKS_PAGE, tasksPage(ctx.queue, ctx.settings, taskSubjects(ctx)));
    surface.link({ path: TASKS_PAGE, title: 'Background tasks', description: 'The queue, its workers and its jobs (webhook deliveries, scheduled jobs); for staff.' });
  },
  // Every plugin's jobs can be tracked: their handlers are known before any runs.
  setup(ctx) {
    const runner = runnerOf(ctx);
    for (const other of ctx.plugins) {
      for (const [name, declared] of Object.entries(other.plugin.jobs ?? {})) {
        const run = typeof declared === 'function' ? declared : declared.run;
        runner.register(`${other.plugin.name}.${name}`, (input, attempt) => run(input, other, attempt));
      }
    }
  },
  // Each plugin's system jobs wait, one of each; they are queued with the jobs a process that died had recorded.
  async start(ctx) {
    for (const other of ctx.plugins) {
      for (const [name, interval] of Object.entries(other.plugin.schedule ?? {})) await runnerOf(ctx).schedule(`${other.plugin.name}.${name}`, interval);
    }
    await recoverJobs(ctx);
  },
  close(ctx) {
    clearTimeout(recovering.get(ctx));
  },
});
