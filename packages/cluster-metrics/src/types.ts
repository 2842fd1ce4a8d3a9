import type { Registry } from 'prom-client';

/** A registry's metrics as `getMetricsAsJSON()` gives them (prom-client's typings say `type` is a number; it is the name). */
export type Snapshot = { name: string; type: string }[];

/** Where the library says what went wrong: it never throws from a timer or a listener. */
export interface MetricsLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/** Every process's metrics summed, for a scrape: through Redis (`SharedMetrics`), or a cluster's primary. */
export interface ProcessesMetrics {
  aggregate(): Promise<Registry>;
}
