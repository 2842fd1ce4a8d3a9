import { nodeOf, type PathNode } from './nodes.js';
import type { CableRole, TraceLoads, TraceState } from './roles.js';
import type { Row } from 'patchbay';

/** A cable path as stored: hops of nodes (terminations, cables, terminations, …) and what they add up to. */
export interface TracedPath {
  path: PathNode[][];
  is_active: boolean;
  is_complete: boolean;
  is_split: boolean;
}

/** No real path is this long; a longer one is a loop the cabling allows (a rear port patched back on itself). */
const MAX_HOPS = 3000;

/** A path as traced so far: complete and split only if `outcome` says so. */
function traced(path: PathNode[][], active: boolean, outcome: Partial<TracedPath> = {}): TracedPath {
  return { path, is_active: active, is_complete: false, is_split: false, ...outcome };
}

/**
 * Follows the cabling from `origin` (endpoints at one end of a cable), as NetBox's CablePath.from_origin does:
 * near-end terminations, the cable, the far-end terminations, then on through pass-through ports and circuits
 * until an endpoint, an open end or a split. Null when the origin has no cable.
 */
export async function traceFrom(
  origin: { model: string; rows: Row[] }, load: TraceLoads, roleOf: (model: string) => CableRole | undefined,
): Promise<TracedPath | null> {
  const path: PathNode[][] = [];
  const state: TraceState = { positions: [] };
  const seen = new Set<number>();
  let active = true;
  let here = origin;
  while (here.rows.length && path.length < MAX_HOPS) {
    const cables = [...new Set(here.rows.map((r) => (r.cable_id as number | null) ?? null))];
    if (cables.length > 1) return traced(path, active, { is_split: true });
    path.push(here.rows.map((r) => nodeOf(here.model, r.id as number)));
    const [cableId] = cables;
    if (cableId === null) return path.length === 1 ? null : traced(path, active);
    // A cable met twice: the cabling loops back on itself.
    if (seen.has(cableId)) return traced(path, active, { is_split: true });
    seen.add(cableId);
    path.push([nodeOf('dcim.cable', cableId)]);
    const [[cable], ends] = await Promise.all([load.rows('dcim.cable', [cableId]), load.where('dcim.cabletermination', 'cable_id', cableId)]);
    if (cable?.status !== 'connected') active = false;
    const nearEnd = here.rows[0].cable_end;
    const farEnds = ends.filter((e) => e.cable_end !== nearEnd);
    const farModel = farEnds.length ? load.registry.objectTypes.keyOf(farEnds[0].termination_type_id as number) : undefined;
    const far = farModel ? await load.rows(farModel, farEnds.map((e) => e.termination_id as number)) : [];
    path.push(far.map((r) => nodeOf(farModel!, r.id as number)));
    if (!far.length) return traced(path, active);
    const pass = roleOf(farModel!)?.passThrough;
    // Reaching endpoints completes the path.
    if (!pass) return traced(path, active, { is_complete: true });
    const step = await pass(far, state, load);
    if ('next' in step) {
      here = step.next;
      continue;
    }
    path.push(...(step.append ?? []));
    return traced(path, active, { is_complete: step.complete ?? false, is_split: step.split ?? false });
  }
  return traced(path, active, { is_split: path.length >= MAX_HOPS });
}
