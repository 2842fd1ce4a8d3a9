import { ValidationError, defineModel, f, loadDisplays, type RenderContext, type Row } from 'patchbay';
import { RackReservationStatus } from '../choices/index.js';
import { rackUnits } from '../rules/rack-units.js';

/** "Reservation for rack R1 (F-7)": the rack's own display, loaded for a page at once. */
async function reservationDisplays(rows: Row[], ctx: RenderContext): Promise<Map<number, string>> {
  const racks = await loadDisplays(ctx.registry.get('dcim.rack'), rows.map((r) => r.rack_id as number), ctx);
  return new Map(rows.map((r) => [r.id as number, `Reservation for rack ${racks.get(r.rack_id as number) ?? ''}`]));
}

/** A whole unit number, as a reservation lists them. */
function unit(value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 32767) throw 'Ensure each unit is a whole number between 0 and 32767.';
  return n;
}

export const RackReservation = defineModel('dcim.rackreservation', {
  path: 'rack-reservations',
  verboseName: 'rack reservation',
  fields: {
    rack: f.fk('dcim.rack', { onDelete: 'cascade', related: 'reservations' }),
    units: f.list({ sqlType: 'smallint[]', item: unit, itemType: 'integer', nonEmpty: true, filter: 'unit' }),
    status: f.choice(RackReservationStatus, { default: 'active' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, onDelete: 'protect', related: 'rackreservations' }),
    user: f.fk('users.user', { onDelete: 'protect' }),
    description: f.string({ max: 200 }),
    comments: f.text({ blank: true }),
  },
  brief: ['status', 'user', 'description', 'units'],
  displayLoader: reservationDisplays,
  displayUses: ['rack'],
  ordering: ['created', 'id'],
  search: ['rack', 'rack__facility_id', 'user', 'description'],
  relatedFilters: { site: 'rack__site', region: 'rack__site__region', site_group: 'rack__site__group', location: 'rack__location' },
  parent: 'rack',
  features: ['tags', 'customFields', 'changelog', 'journal'],
  // Units must exist in the rack and be free of other reservations; the rack stays locked until the write commits.
  async validate(row, ctx) {
    const rack = await ctx.stored(ctx.registry.get('dcim.rack'), row.rack_id as number, { lock: true });
    if (!rack) return;
    const units = row.units as number[];
    const valid = new Set(rackUnits(rack));
    const invalid = units.filter((u) => !valid.has(u));
    if (invalid.length) throw ValidationError.of('units', `Invalid unit(s) for ${rack.u_height}U rack: ${invalid.join(', ')}`);
    const reserved = await ctx.batch('dcim.rack-reservations', rack.id as number, async (racks: number[]) => {
      const stored = (await ctx.db(RackReservation.table).select('id', 'rack_id', 'units').whereIn('rack_id', racks)) as Row[];
      return racks.map((id) => stored.filter((r) => r.rack_id === id));
    });
    const taken = new Set(reserved.filter((r) => r.id !== row.id).flatMap((r) => r.units as number[]));
    const conflicting = units.filter((u) => taken.has(u));
    if (conflicting.length) throw ValidationError.of('units', `The following units have already been reserved: ${conflicting.join(', ')}`);
  },
});
