import type { Row } from 'patchbay';

/** A rack's whole unit numbers, top to bottom (ascending numbering puts the highest unit on top). */
export function rackUnits(rack: Row): number[] {
  const start = rack.starting_unit as number;
  const units = Array.from({ length: rack.u_height as number }, (_, i) => start + i);
  return rack.desc_units ? units : units.reverse();
}
