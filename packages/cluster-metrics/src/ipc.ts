import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { guarded, withinWait } from '@patchbay/guards';
import type { ProcessesMetrics, MetricsLog, Snapshot } from './types.js';

/** prom-client's messages: its worker side answers the first with the second (`AggregatorRegistry` in a worker). */
const PROM_REQUEST = 'prom-client:getMetricsReq';
const PROM_RESPONSE = 'prom-client:getMetricsRes';
/** A worker asking the supervising process for every worker's metrics, and the answer. */
const ASK = 'patchbay:metrics';
const ANSWER = 'patchbay:metrics-answer';

interface Message {
  type?: unknown;
  requestId?: unknown;
  metrics?: Snapshot[];
  error?: string;
}

/**
 * In each worker of a Node cluster: prom-client's worker side answers the supervisor with this process's
 * registry, and a scrape asks the supervisor for the sum (this process's own figures if it does not answer).
 */
export function clusterWorkerMetrics(registry: Registry, log: MetricsLog): ProcessesMetrics {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one in a worker installs prom-client's answering listener (once, whatever the count).
  new AggregatorRegistry();
  const waiting = new Map<number, (metrics: Snapshot) => void>();
  let next = 0;
  process.on('message', guarded((message: Message) => {
    if (message?.type !== ANSWER || typeof message.requestId !== 'number') return;
    waiting.get(message.requestId)?.(message.metrics?.[0] ?? []);
  }, (err) => log.error(`metrics: ${String(err)}`)));
  return {
    async aggregate() {
      const requestId = ++next;
      try {
        const summed = await withinWait(new Promise<Snapshot>((ok) => {
          waiting.set(requestId, ok);
          process.send?.({ type: ASK, requestId });
        }));
        return AggregatorRegistry.aggregate([summed]);
      } catch {
        log.warn('metrics: the supervising process did not answer; this scrape shows this process alone');
        return registry;
      } finally {
        waiting.delete(requestId);
      }
    },
  };
}

/**
 * In the primary of a Node cluster: answers a worker's scrape with the sum of every worker's
 * metrics. prom-client's own `clusterMetrics()` fails the whole scrape when one worker is slow or ends during it, and
 * forgets an ended worker's counts, so counters would fall: here a worker that does not answer in time counts with
 * its last answer, and an ended worker's counters and histograms stay in a retired total (its gauges leave with it).
 */
export class ClusterMetricsSupervisor {
  private readonly last = new Map<number, Snapshot>();
  private retired: Snapshot = [];
  private readonly pending = new Map<string, (metrics: Snapshot) => void>();
  private next = 0;

  constructor(private readonly log: MetricsLog) {
    const failed = (err: unknown) => log.error(`metrics: ${err instanceof Error ? err.stack : String(err)}`);
    cluster.on('message', guarded((worker: Worker, message: Message) => {
      if (message?.type === PROM_RESPONSE && typeof message.requestId === 'string') {
        this.pending.get(message.requestId)?.(message.error ? [] : (message.metrics ?? []).flat());
      } else if (message?.type === ASK && typeof message.requestId === 'number') {
        const requestId = message.requestId;
        void this.gather()
          .then((metrics) => worker.isConnected() && worker.send({ type: ANSWER, requestId, metrics: [metrics] }))
          .catch(failed);
      }
    }, failed));
    cluster.on('exit', guarded((worker: Worker) => this.retire(worker.id), failed));
  }

  /** Every live worker's metrics (a late one's last answer), plus what ended workers counted. */
  private async gather(): Promise<Snapshot> {
    const round = ++this.next;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w.isConnected());
    await Promise.all(workers.map(async (worker) => {
      const requestId = `${round}:${worker.id}`;
      try {
        const metrics = await withinWait(new Promise<Snapshot>((ok) => {
          this.pending.set(requestId, ok);
          worker.send({ type: PROM_REQUEST, requestId });
        }));
        this.last.set(worker.id, metrics);
      } catch {
        // Not in time (busy, or ending): its last answer stands in.
      } finally {
        this.pending.delete(requestId);
      }
    }));
    const live = workers.map((w) => this.last.get(w.id)).filter((s): s is Snapshot => !!s);
    return (await AggregatorRegistry.aggregate([this.retired, ...live]).getMetricsAsJSON()) as unknown as Snapshot;
  }

  /** An ended worker's last counters and histograms join the retired total, so that the sums never fall. */
  private retire(id: number): void {
    const last = this.last.get(id);
    this.last.delete(id);
    if (!last) return;
    const kept = last.filter((m) => m.type === 'counter' || m.type === 'histogram');
    void AggregatorRegistry.aggregate([this.retired, kept]).getMetricsAsJSON()
      .then((total) => (this.retired = total as unknown as Snapshot))
      .catch((err: Error) => this.log.error(`metrics: ${err.message}`));
  }
}
