import type { Row } from '../base/types.js';

/** Thrown by a tracked job that ends as "failed" (a result it reports) rather than "errored" (an exception). */
export class JobFailed extends Error {}

export interface TrackOptions {
  /** The object the job is about; its events match event rules on that object's model. */
  object?: { model: string; id: number };
  userId?: number | null;
  /** The handler's input, the job's `data` until the handler returns a result. */
  data?: unknown;
  /** Not before then (status "scheduled"). */
  scheduleAt?: Date;
  /** Runs again every this many minutes. */
  interval?: number;
}

/** Tracked jobs (`ctx.jobs`, the service `Services.jobs`): each run recorded with its status, times, result and log. */
export interface TrackedJobs {
  /** Records a run of `<plugin>.<job>` and enqueues it; returns its row. */
  enqueue(job: string, options?: TrackOptions): Promise<Row>;
}
