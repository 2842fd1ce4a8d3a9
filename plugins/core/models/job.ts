import { defineModel, f } from 'patchbay';
import { JobStatus } from '../choices.js';

/**
 * A tracked background job (NetBox's core.Job): a plugin's job enqueued through `ctx.jobs`, or a system job that
 * runs every `interval` minutes. Written by the job runner alone; read-only through the API.
 */
export const Job = defineModel('core.job', {
  path: 'jobs',
  verboseName: 'job',
  readOnly: true,
  // Not in NetBox's GraphQL schema either.
  graphql: false,
  fields: {
    // A job's record outlives its object (as a change record does), and deletes of other models stay one statement shorter.
    object: f.generic({ nullable: true, onDelete: 'keep' }),
    name: f.string({ max: 200 }),
    status: f.choice(JobStatus, { default: 'pending' }),
    scheduled: f.datetime({ nullable: true }),
    interval: f.integer({ min: 1, nullable: true, helpText: 'Recurrence interval (in minutes)' }),
    started: f.datetime({ nullable: true }),
    completed: f.datetime({ nullable: true }),
    user: f.fk('users.user', { nullable: true, onDelete: 'set null', related: 'jobs' }),
    data: f.json({ nullable: true }),
    error: f.text({ blank: true }),
    job_id: f.uuid({ unique: true }),
    log_entries: f.json({ default: [], keepOrder: true, helpText: 'The job\'s log: level, timestamp and message of each entry.' }),
  },
  brief: ['created', 'completed', 'user', 'status'],
  ordering: ['-created'],
  search: ['name', 'user'],
  display: (row) => String(row.name),
});
