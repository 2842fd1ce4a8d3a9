export {
  QueueUnavailable, TASK_STATUSES, abandonedMessage, errorLog, retryDelay, withoutPaths,
  type AbandonedHandler, type EnqueueOptions, type JobHandler, type JobRun, type LogLevel, type QueueLog, type QueuePort,
  type QueueStats, type RunAttempt, type Task, type TaskStatus, type WorkerState,
} from './port.js';
export { BullQueue, type BullOptions } from './bull.js';
export { PostgresQueue, type PostgresQueueOptions } from './postgres.js';
