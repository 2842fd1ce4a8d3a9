import { defineChoices } from 'patchbay';

export const JobStatus = defineChoices([
  ['pending', 'Pending'],
  ['scheduled', 'Scheduled'],
  ['running', 'Running'],
  ['completed', 'Completed'],
  ['errored', 'Errored'],
  ['failed', 'Failed'],
]);

/** Statuses of a job that has not run yet. */
export const WAITING_STATUSES = ['pending', 'scheduled'];
