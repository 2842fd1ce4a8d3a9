import type { Request, Response, Router } from 'express';
import { requireStaff, HttpError, notFound, baseUrl, send, formatDateTime, TASK_STATUSES, paginate, type JsonObject, type PluginContext, type QueuePort, type Task, type TaskStatus, type WorkerState } from 'patchbay';

const when = (date: Date | null) => (date ? formatDateTime(date) : null);

/** A queue as NetBox's background queues list it (RQ's statistics). */
async function queueOf(queue: QueuePort, base: string): Promise<JsonObject> {
  const stats = await queue.stats();
  return {
    name: stats.name, url: `${base}/api/core/background-queues/${stats.name}/`, jobs: stats.queued,
    oldest_job_timestamp: when(stats.oldestQueued), index: 0, scheduler_pid: null, workers: stats.workers,
    finished_jobs: stats.finished, started_jobs: stats.started, deferred_jobs: stats.deferred, failed_jobs: stats.failed,
    scheduled_jobs: stats.scheduled,
  };
}

function workerOf(worker: WorkerState, base: string): JsonObject {
  return {
    name: worker.name, url: `${base}/api/core/background-workers/${encodeURIComponent(worker.name)}/`, state: worker.state,
    birth_date: formatDateTime(worker.birth), queue_names: worker.queues, pid: String(worker.pid),
    successful_job_count: worker.successful, failed_job_count: worker.failed, total_working_time: Math.round(worker.workingTime),
  };
}

/** RQ's status flags, in the order NetBox's serializer lists them. */
const FLAGS: TaskStatus[] = ['finished', 'queued', 'failed', 'started', 'deferred', 'canceled', 'scheduled', 'stopped'];

/** A job as an RQ task: its data is the one argument; attempts and the error log are in `meta`. */
export function taskOf(task: Task, base: string): JsonObject {
  return {
    id: task.id, url: `${base}/api/core/background-tasks/${encodeURIComponent(task.id)}/`, description: task.description,
    origin: task.queue, func_name: task.name, args: [JSON.stringify(task.data)], kwargs: {},
    result: task.result === null || task.result === undefined ? null : String(task.result), timeout: task.timeoutSeconds || null,
    result_ttl: null, created_at: when(task.created), enqueued_at: when(task.enqueued), started_at: when(task.started),
    ended_at: when(task.ended), worker_name: task.workerName, position: task.position, status: task.status,
    meta: { attempts: task.attempts, attempts_made: task.attemptsMade, errors: task.errors }, last_heartbeat: null,
    ...Object.fromEntries(FLAGS.map((s) => [`is_${s}`, task.status === s])),
  };
}

/** A task by id, or 404. */
export async function taskById(queue: QueuePort, id: string): Promise<Task> {
  const task = await queue.task(id);
  if (!task) throw new HttpError(404, { detail: `Job ${id} not found.` });
  return task;
}

/** Actions on a task that apply to some statuses only: anything else is the client's mistake, said plainly. */
export async function requeueTask(queue: QueuePort, id: string): Promise<void> {
  const task = await taskById(queue, id);
  if (!(await queue.requeue(id))) throw new HttpError(400, { detail: `Job ${id} is ${task.status}: only a failed job can be requeued.` });
}

/** NetBox enqueues a task whatever its status; a job running or done cannot be started again here. */
async function enqueueTask(queue: QueuePort, id: string): Promise<void> {
  const task = await taskById(queue, id);
  if (task.status === 'queued') return;
  if (await queue.promote(id)) return;
  if (await queue.requeue(id)) return;
  throw new HttpError(400, { detail: `Job ${id} is ${task.status}: only a scheduled, deferred or failed job can be enqueued.` });
}

type Handler = (req: Request, res: Response, queue: QueuePort) => Promise<void>;

/**
 * `/api/core/background-queues/`, `/background-workers/` and `/background-tasks/` with NetBox's representations,
 * staff only; the task actions are POSTs without a body.
 */
export function backgroundRoutes(router: Router, ctx: PluginContext): void {
  const staff = (handler: Handler) => async (req: Request, res: Response) => {
    requireStaff(req);
    await handler(req, res, ctx.queue);
  };
  const list = (title: string, items: (queue: QueuePort, base: string) => Promise<JsonObject[]>): Handler =>
    async (req, res, queue) => send(req, res, 200, paginate(req, ctx.settings, await items(queue, baseUrl(req))), title);
  const one = (title: string, item: (queue: QueuePort, name: string, base: string) => Promise<JsonObject | undefined>): Handler =>
    async (req, res, queue) => {
      const found = await item(queue, String(req.params.name), baseUrl(req));
      if (!found) throw notFound();
      send(req, res, 200, found, title);
    };
  const workers = async (queue: QueuePort, base: string) => (await queue.workers()).map((w) => workerOf(w, base));

  router.get('/background-queues/', staff(list('Background Queues', async (queue, base) => [await queueOf(queue, base)])));
  router.get('/background-queues/:name/', staff(one('Background Queue', async (queue, name, base) => (name === queue.name ? queueOf(queue, base) : undefined))));
  router.get('/background-workers/', staff(list('Background Workers', workers)));
  router.get('/background-workers/:name/', staff(one('Background Worker', async (queue, name, base) => (await workers(queue, base)).find((w) => w.name === name))));
  router.get('/background-tasks/', staff(list('Background Tasks', async (queue, base) => (await queue.tasks(TASK_STATUSES)).map((t) => taskOf(t, base)))));
  router.get('/background-tasks/:name/', staff(async (req, res, queue) => {
    send(req, res, 200, taskOf(await taskById(queue, String(req.params.name)), baseUrl(req)), 'Background Task');
  }));
  const action = (act: (queue: QueuePort, id: string) => Promise<number>): Handler => async (req, res, queue) => {
    res.status(await act(queue, String(req.params.name))).end();
  };
  router.post('/background-tasks/:name/delete/', staff(action(async (queue, id) => {
    await taskById(queue, id);
    await queue.remove(id);
    return 200;
  })));
  router.post('/background-tasks/:name/requeue/', staff(action(async (queue, id) => (await requeueTask(queue, id), 200))));
  router.post('/background-tasks/:name/enqueue/', staff(action(async (queue, id) => (await enqueueTask(queue, id), 200))));
  router.post('/background-tasks/:name/stop/', staff(action(async (queue, id) => {
    await taskById(queue, id);
    return (await queue.stop(id)) ? 200 : 204;
  })));
}
