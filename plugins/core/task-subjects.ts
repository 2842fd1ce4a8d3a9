import { appendTo, type PluginContext, type Task, type TaskSubject } from 'patchbay';

/**
 * What the tasks the page lists are about, by task id: each plugin job that describes its tasks (extras' webhook
 * deliveries) is asked once for all of its own, with its plugin's context.
 */
export function taskSubjects(ctx: PluginContext): (tasks: Task[]) => Promise<Map<string, TaskSubject[]>> {
  const describers = new Map<string, (tasks: Task[]) => Promise<Map<string, TaskSubject[]>>>();
  for (const other of ctx.plugins) {
    for (const [name, job] of Object.entries(other.plugin.jobs ?? {})) {
      if (typeof job !== 'function' && job.subjects) describers.set(`${other.plugin.name}.${name}`, (tasks) => job.subjects!(tasks, other));
    }
  }
  return async (tasks) => {
    const byJob = new Map<string, Task[]>();
    for (const task of tasks) if (describers.has(task.name)) appendTo(byJob, task.name, task);
    // A job that fails to describe its tasks leaves them undescribed: the page still lists them.
    const described = await Promise.all([...byJob].map(([name, own]) => describers.get(name)!(own).catch((err: unknown) => {
      ctx.log.error(`The tasks of ${name} could not be described: ${err instanceof Error ? err.message : String(err)}`);
      return new Map<string, TaskSubject[]>();
    })));
    return new Map(described.flatMap((map) => [...map]));
  };
}
