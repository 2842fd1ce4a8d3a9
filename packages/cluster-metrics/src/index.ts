export { ClusterMetricsSupervisor, clusterWorkerMetrics } from './ipc.js';
export { SharedMetrics } from './redis.js';
export type { MetricsLog, ProcessesMetrics } from './types.js';
