import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Label values by label name; every value comes from code (a route template, a model name), never from a request. */
export type Labels<L extends string> = Partial<Record<L, string | number>>;

export interface MetricSpec<L extends string> {
  /** Prometheus name: a counter's ends in `_total`. */
  name: string;
  help: string;
  labels?: readonly L[];
}

export interface CounterMetric<L extends string = string> {
  inc(labels?: Labels<L>, value?: number): void;
}

export interface HistogramMetric<L extends string = string> {
  observe(labels: Labels<L>, value: number): void;
}

export interface GaugeMetric<L extends string = string> {
  set(labels: Labels<L>, value: number): void;
}

/** What a plugin declares its metrics with (`ctx.metrics`): they join the server's `/metrics`. */
export interface MetricsDeclarations {
  counter<L extends string>(spec: MetricSpec<L>): CounterMetric<L>;
  histogram<L extends string>(spec: MetricSpec<L> & { buckets: number[] }): HistogramMetric<L>;
  /** A gauge read when /metrics is scraped: `collect` sets its values then (a queue's depth, a table's size). */
  gauge<L extends string>(spec: MetricSpec<L> & { collect?: (gauge: GaugeMetric<L>) => Promise<void> | void }): GaugeMetric<L>;
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * The metrics of one server or worker process: a prom-client registry of its own (several servers may share a
 * process, in tests), the families the kernel and plugins declare, and Node's process metrics. Counters and
 * histograms are summed across processes when they are scraped (`@patchbay/cluster-metrics`: through Redis, else by
 * the supervisor of `runserver`'s workers); gauges read when scraped (`collect`) describe the deployment, not the
 * process, and are read once, by the scraped process.
 */
export class Metrics implements MetricsDeclarations {
  readonly registry = new Registry();
  /** Gauges of shared state (queue depth): computed by the process scraped, never summed with other processes'. */
  readonly deployment = new Registry();

  /** `processMetrics`: Node's (CPU, memory, event loop, GC), which watch the process from the moment they are on. */
  constructor(processMetrics: boolean) {
    if (processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  private check(name: string): string {
    if (!NAME.test(name)) throw new Error(`Metric name "${name}" must match ${NAME}`);
    return name;
  }

  counter<L extends string>(spec: MetricSpec<L>): CounterMetric<L> {
    return new Counter({ name: this.check(spec.name), help: spec.help, labelNames: spec.labels ?? [], registers: [this.registry] });
  }

  histogram<L extends string>(spec: MetricSpec<L> & { buckets: number[] }): HistogramMetric<L> {
    return new Histogram({ name: this.check(spec.name), help: spec.help, labelNames: spec.labels ?? [], buckets: spec.buckets, registers: [this.registry] });
  }

  gauge<L extends string>(spec: MetricSpec<L> & { collect?: (gauge: GaugeMetric<L>) => Promise<void> | void }): GaugeMetric<L> {
    const { collect } = spec;
    // A collected gauge is the deployment's; one set as things happen is the process's.
    const register = collect ? this.deployment : this.registry;
    return new Gauge<L>({
      name: this.check(spec.name), help: spec.help, labelNames: spec.labels ?? [], registers: [register],
      ...(collect ? { async collect(this: Gauge<L>) { this.reset(); await collect(this); } } : {}),
    });
  }
}
