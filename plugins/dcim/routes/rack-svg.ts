import { escapeHtml as escape, type Row } from 'patchbay';
import { halfUnits, type Mounted } from './rack-units.js';

export interface SvgOptions {
  unitWidth: number;
  unitHeight: number;
  legendWidth: number;
  marginWidth: number;
  /** Where device links point (`/dcim/devices/<id>/`), absolute. */
  deviceUrl: (id: number) => string;
}


/** Black or white text, whichever reads better on `color`. */
function textColor(color: string): string {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(color.slice(i, i + 2), 16));
  return r * 0.299 + g * 0.587 + b * 0.114 > 150 ? '000000' : 'ffffff';
}

/**
 * A picture of one face of the rack: the unit legend on the left, each whole unit a slot, each device a box in
 * its role's colour, linked to the device; devices the reader may not view are drawn as occupied without a name.
 */
export function rackSvg(rack: Row, face: string, devices: Mounted[], o: SvgOptions): string {
  const whole = halfUnits(rack).filter(Number.isInteger);
  const top = Math.max(...whole) + 1;
  const low = Math.min(...whole);
  const descending = rack.desc_units as boolean;
  const height = whole.length * o.unitHeight;
  const width = o.legendWidth + o.unitWidth + o.marginWidth;
  // The y of a unit's top edge: ascending racks draw the highest unit at the top.
  const yOf = (u: number) => (descending ? (u - low) * o.unitHeight : (top - u) * o.unitHeight);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" class="rack_elevation" width="${width}" height="${height + 40}">`,
    `<style>.unit{fill:#f7f7f7;stroke:#d7d7d7}.legend{font:11px sans-serif;fill:#606060}.device text{font:12px sans-serif}.blocked{fill:#b3b3b3}</style>`,
    `<text class="legend" x="${o.legendWidth + o.unitWidth / 2}" y="14" text-anchor="middle">${escape(String(rack.name))} (${face === 'rear' ? 'Rear' : 'Front'})</text>`,
    `<g transform="translate(0, 20)">`,
    `<rect x="${o.legendWidth}" y="0" width="${o.unitWidth}" height="${height}" fill="none" stroke="#404040" stroke-width="3"/>`,
  ];
  for (const u of whole) {
    const y = descending ? yOf(u) : yOf(u) - o.unitHeight;
    parts.push(`<text class="legend" x="${o.legendWidth - 4}" y="${y + o.unitHeight / 2 + 4}" text-anchor="end">${u}</text>`);
    parts.push(`<rect class="unit" x="${o.legendWidth}" y="${y}" width="${o.unitWidth}" height="${o.unitHeight}"/>`);
  }
  for (const d of devices.filter((d) => d.face === face || d.fullDepth)) {
    const rear = d.face !== face;
    const y = descending ? yOf(d.position) : yOf(d.position + d.height);
    const h = d.height * o.unitHeight;
    const box = `x="${o.legendWidth + 1}" y="${y}" width="${o.unitWidth - 2}" height="${h}"`;
    if (!d.visible) {
      parts.push(`<rect class="blocked" ${box}/>`);
      continue;
    }
    const fill = rear ? 'f0f0f0' : d.color;
    parts.push(
      `<a class="device" href="${escape(o.deviceUrl(d.id))}"><title>${escape(d.name)}</title>`,
      `<rect ${box} fill="#${fill}" stroke="#404040"/>`,
      `<text x="${o.legendWidth + o.unitWidth / 2}" y="${y + h / 2 + 4}" text-anchor="middle" fill="#${textColor(fill)}">${escape(d.name)}</text></a>`,
    );
  }
  parts.push('</g></svg>');
  return parts.join('');
}
