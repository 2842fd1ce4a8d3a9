import { definePlugin } from '../plugin.js';
import { backgroundRoutes } from './background.js';
import { coreHousekeeping } from './housekeeping.js';
import { Job } from './models/job.js';
import { TASKS_PAGE, tasksPage } from './tasks-page.js';

const action = (summary: string) => ({ summary, responses: { '200': { description: 'Done' } } });

/**
 * NetBox's core app: tracked jobs, and the background queue, its workers and its tasks (staff only), in the API
 * and on a page for the browser. Part of the kernel, declared like any other app.
 */
export const corePlugin = definePlugin({
  name: 'core',
  label: 'Core',
  version: '0.1.0',
  kernel: '*',
  basePath: '/api/core/',
  dependencies: ['users'],
  models: [Job],
  migrations: new URL('./migrations/', import.meta.url),
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
    surface.mount(TASKS_PAGE, tasksPage(ctx.queue, ctx.settings));
  },
});
