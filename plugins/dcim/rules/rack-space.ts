import type { Row, WriteScope } from 'patchbay';

/** A device mounted in a rack: its lowest unit, height in units, face, and whether it fills the rack's depth. */
export interface Placement {
  id?: number;
  rack: number;
  position: number;
  height: number;
  face: string;
  fullDepth: boolean;
}

/** Units are numbered from `starting_unit`; a device fits if all its units exist. */
export function fitsRack(rack: Row, p: Placement): boolean {
  const start = rack.starting_unit as number;
  return p.position >= start && p.position + p.height <= start + (rack.u_height as number);
}

/** Two devices clash when their units overlap on the same face, or either fills the rack's depth. */
export function collides(a: Placement, b: Placement): boolean {
  if (!(a.fullDepth || b.fullDepth || a.face === b.face)) return false;
  return a.position < b.position + b.height && b.position < a.position + a.height;
}

/** "1.0": positions and heights as NetBox prints its decimals. */
export function units(n: number): string {
  return n.toFixed(1);
}

/** The devices mounted in `racks` (0U ones take no units), except `excluding`, in one query. */
export async function placementsIn(scope: WriteScope, racks: number[], excluding: number[]): Promise<Placement[]> {
  if (!racks.length) return [];
  const rows = (await scope
    .db('dcim_device as d')
    .join('dcim_devicetype as t', 't.id', 'd.device_type_id')
    .select('d.id', 'd.rack_id', 'd.position', 'd.face', 't.u_height', 't.is_full_depth')
    .whereIn('d.rack_id', racks)
    .whereNotNull('d.position')
    .where('t.u_height', '>', 0)
    .whereNotIn('d.id', excluding)) as Row[];
  return rows.map((r) => ({
    id: r.id as number, rack: r.rack_id as number, position: Number(r.position), height: Number(r.u_height), face: r.face as string, fullDepth: r.is_full_depth as boolean,
  }));
}
