/** A background job handler; throwing marks the job failed. */
export type JobHandler = (data: unknown) => Promise<void> | void;

/** Where background work goes: bull on Redis in production, in-process otherwise. */
export interface QueuePort {
  readonly kind: 'redis' | 'in-process';
  /** Registers the handler of jobs named `name`. */
  handle(name: string, handler: JobHandler): void;
  enqueue(name: string, data: unknown): Promise<void>;
  /** Whether the queue is reachable. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
