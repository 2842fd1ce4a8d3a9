import { ValidationError, defineModel, f, type Row, type ValidateContext } from 'patchbay';
import { RackAirflow, RackStatus } from '../choices/index.js';
import { placementsIn, units } from '../rules/rack-space.js';
import { RACK_TYPE_ATTRIBUTES, checkDimensions, clearOuterUnit, rackDimensions } from './rack-base.js';

/** A rack that shrinks or renumbers must still hold the devices mounted in it. */
async function checkMountedDevices(row: Row, ctx: ValidateContext): Promise<void> {
  const mounted = await ctx.batch('dcim.rack-placements', row.id as number, async (racks: number[]) => {
    const all = await placementsIn(ctx, racks, []);
    return racks.map((id) => all.filter((p) => p.rack === id));
  });
  if (!mounted.length) return;
  const start = row.starting_unit as number;
  const top = Math.max(...mounted.map((p) => p.position + p.height));
  const lowest = Math.min(...mounted.map((p) => p.position));
  if ((row.u_height as number) < top - start) {
    throw ValidationError.of(row.rack_type_id ? 'rack_type' : 'u_height', `Rack must be at least ${units(top - start)}U tall to house currently installed devices.`);
  }
  if (start > lowest) {
    throw ValidationError.of(row.rack_type_id ? 'rack_type' : 'starting_unit', `Rack unit numbering must begin at ${units(lowest)} or less to house currently installed devices.`);
  }
}

export const Rack = defineModel('dcim.rack', {
  path: 'racks',
  fields: {
    name: f.string({ max: 100, natural: true }),
    facility_id: f.string({ max: 50, nullable: true, blank: true }),
    site: f.fk('dcim.site', { onDelete: 'protect', countAs: 'rack_count', related: 'racks' }),
    location: f.fk('dcim.location', { nullable: true, countAs: 'rack_count', related: 'racks' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, onDelete: 'protect', countAs: 'rack_count', related: 'racks' }),
    status: f.choice(RackStatus, { default: 'active' }),
    role: f.fk('dcim.rackrole', { nullable: true, onDelete: 'protect', countAs: 'rack_count', related: 'racks' }),
    serial: f.string({ max: 50, blank: true }),
    asset_tag: f.string({ max: 50, nullable: true, blank: true, unique: true }),
    rack_type: f.fk('dcim.racktype', { nullable: true, onDelete: 'protect' }),
    ...rackDimensions(),
    airflow: f.choice(RackAirflow, { nullable: true }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['location', 'name'] }, { fields: ['location', 'facility_id'] }],
  brief: ['name', 'description', 'device_count'],
  display: (row) => (row.facility_id ? `${row.name} (${row.facility_id})` : String(row.name)),
  displayUses: ['name', 'facility_id'],
  ordering: ['site', 'location', 'name', 'id'],
  search: ['name', 'facility_id', 'serial', 'asset_tag', 'description', 'comments'],
  relatedFilters: { region: 'site__region', site_group: 'site__group', manufacturer: 'rack_type__manufacturer' },
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts', 'imageAttachments'],
  hooks: {
    // A rack of a type takes the type's physical attributes.
    async beforeSave(item, session) {
      const typeId = item.row.rack_type_id as number | null;
      const type = typeId ? await session.stored(session.registry.get('dcim.racktype'), typeId) : undefined;
      if (type) for (const name of RACK_TYPE_ATTRIBUTES) item.columns[name] = type[name];
      clearOuterUnit(item);
    },
  },
  async validate(row, ctx) {
    if (row.location_id) {
      const location = await ctx.stored(ctx.registry.get('dcim.location'), row.location_id as number);
      if (location && location.site_id !== row.site_id) {
        const site = await ctx.stored(ctx.registry.get('dcim.site'), row.site_id as number);
        throw ValidationError.of('__all__', `Assigned location must belong to parent site (${site?.name}).`);
      }
    }
    checkDimensions(row);
    if (ctx.instance) await checkMountedDevices(row, ctx);
  },
});
