import type { Row } from 'patchbay';

/** A device as it sits in a rack's elevation. */
export interface Mounted {
  id: number;
  name: string;
  position: number;
  height: number;
  face: string;
  fullDepth: boolean;
  color: string;
  /** Whether the reader may view it: others occupy their units but stay anonymous. */
  visible: boolean;
}

/** One half unit of the elevation, top to bottom, and what occupies it. */
export interface ElevationUnit {
  id: number;
  name: string;
  device: Mounted | null;
  occupied: boolean;
  /** Only with `expand_devices=false`: the height of the device starting here. */
  height?: number;
}

/** `U42`, `U42.5`: how NetBox names a unit. */
export function unitName(u: number): string {
  return Number.isInteger(u) ? `U${u}` : `U${u.toFixed(1)}`;
}

/** The rack's half units from the top (descending numbering puts unit 1 on top). */
export function halfUnits(rack: Row): number[] {
  const start = rack.starting_unit as number;
  const height = rack.u_height as number;
  const units = Array.from({ length: height * 2 }, (_, i) => start + i / 2);
  return rack.desc_units ? units : units.reverse();
}

/**
 * NetBox's elevation of one face: every half unit, with the devices on that face (or full depth) placed on the
 * units they cover; `expand` repeats a device on each of its units, otherwise only its lowest unit holds it.
 */
export function elevation(rack: Row, face: string, devices: Mounted[], expand: boolean): ElevationUnit[] {
  const units = new Map(halfUnits(rack).map((u) => [u, { id: u, name: unitName(u), device: null, occupied: false } as ElevationUnit]));
  for (const device of devices) {
    if (device.face !== face && !device.fullDepth) continue;
    const covered = expand ? Array.from({ length: device.height * 2 }, (_, i) => device.position + i / 2) : [device.position];
    for (const u of covered) {
      const unit = units.get(u);
      if (!unit) continue;
      unit.occupied = true;
      if (device.visible) unit.device = device;
      if (!expand) unit.height = device.height;
    }
  }
  return [...units.values()];
}
