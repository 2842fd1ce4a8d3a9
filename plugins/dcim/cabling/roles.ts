import type { ModelRegistry, Row } from 'patchbay';
import type { PathNode } from './nodes.js';

/** Rows a trace reads, loaded together with what the other traces of the same round ask for. */
export interface TraceLoads {
  registry: ModelRegistry;
  /** Rows of `model` by id, in the order of `ids` (missing ones left out). */
  rows(model: string, ids: number[]): Promise<Row[]>;
  /** Rows of `model` whose `column` holds `value`, by id. */
  where(model: string, column: string, value: number): Promise<Row[]>;
}

/** What a trace carries from hop to hop: the rear port positions entered through front ports, innermost last. */
export interface TraceState {
  positions: number[][];
}

/** Where a trace goes after reaching pass-through terminations: on from `next`, or it stops (appending hops). */
export type TraceStep =
  | { next: { model: string; rows: Row[] } }
  | { stop: true; append?: PathNode[][]; complete?: boolean; split?: boolean };

/** How a pass-through model carries a path on (a front port to its rear port, a circuit to its other end). */
export type PassThrough = (far: Row[], state: TraceState, load: TraceLoads) => Promise<TraceStep>;

/**
 * What a cabled model is to a cable path: an endpoint where paths start and end (interfaces, console and power
 * ports, power feeds), or a pass-through carrying them on. `refuse` names why an object cannot take a cable.
 */
export interface CableRole {
  passThrough?: PassThrough;
  /** Models whose objects the other end of a cable may hold (either side naming the other suffices). */
  connectsTo?: string[];
  refuse?(row: Row, registry: ModelRegistry): string | undefined;
  /**
   * Where its objects are, as SQL selecting `id, device_id, rack_id, location_id, site_id` (for the cable filters by
   * place); by default the place of the object's device.
   */
  place?: string;
}
