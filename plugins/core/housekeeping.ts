import { Services, type PluginContext, type JobRun } from 'patchbay';
import { Job } from './models/job.js';

/** The daily core housekeeping job: expired login sessions and jobs ended more than JOB_RETENTION days ago. */
export async function coreHousekeeping(_data: unknown, ctx: PluginContext, run: JobRun): Promise<{ sessions: number; jobs: number }> {
  const sessions = await ctx.services.get(Services.accounts).clearExpiredSessions();
  run.log('info', `Deleted ${sessions} expired sessions.`);
  const days = ctx.settings.JOB_RETENTION;
  let jobs = 0;
  if (days) {
    jobs = await ctx.db(Job.table).whereNotNull('completed').where('completed', '<', ctx.db.raw(`now() - make_interval(days => ?)`, [days])).delete();
    run.log('info', `Deleted ${jobs} jobs ended more than ${days} days ago.`);
  } else run.log('info', 'JOB_RETENTION is 0: jobs are kept forever.');
  return { sessions, jobs };
}
