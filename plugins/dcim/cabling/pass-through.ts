import type { Row } from 'patchbay';
import type { PassThrough, TraceStep } from './roles.js';

const split: TraceStep = { stop: true, split: true };

/** Front ports lead to their rear port, remembering the positions when the rear port carries several. */
export const frontToRear: PassThrough = async (far, state, load) => {
  const rears = await load.rows('dcim.rearport', [...new Set(far.map((f) => f.rear_port_id as number))]);
  if (rears.length > 1 || Number(rears[0]?.positions) > 1) state.positions.push(far.map((f) => f.rear_port_position as number));
  return { next: { model: 'dcim.rearport', rows: rears } };
};

/** Rear ports lead to the front port(s) of the position the path entered by; without one, the path splits. */
export const rearToFront: PassThrough = async (far, state, load) => {
  const frontsOf = (rear: Row) => load.where('dcim.frontport', 'rear_port_id', rear.id as number);
  let fronts: Row[];
  if (far.length === 1 && far[0].positions === 1) {
    fronts = (await frontsOf(far[0])).filter((f) => f.rear_port_position === 1);
  } else if (far.length > 1 && state.positions.length) {
    const positions = state.positions.pop()!;
    if (positions.length !== far.length) return split;
    const found = await Promise.all(far.map(frontsOf));
    fronts = found.flatMap((rows, n) => rows.filter((f) => f.rear_port_position === positions[n]));
  } else if (state.positions.length) {
    const positions = state.positions.pop()!;
    fronts = (await frontsOf(far[0])).filter((f) => positions.includes(f.rear_port_position as number));
  } else if (far.every((r) => r.positions === 1)) {
    fronts = (await Promise.all(far.map(frontsOf))).flat();
    if (fronts.length !== far.length) return split;
  } else {
    return split;
  }
  return fronts.length ? { next: { model: 'dcim.frontport', rows: fronts } } : { stop: true };
};
