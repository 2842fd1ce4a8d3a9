import { ValidationError, defineModel, f, type Row, type ValidateContext } from 'patchbay';
import { collides, fitsRack, placementsIn, units } from '../rules/rack-space.js';
import { DeviceAirflow, SubdeviceRole, WeightUnit } from '../choices/index.js';
import { countRows } from '../rules/count-rows.js';
import { hasTemplates } from '../rules/has-templates.js';
import { checkWeight } from './rack-base.js';

/** A device type as a rule reads it (u_height is stored as numeric text). */
export function height(type: Row): number {
  return Number(type.u_height);
}

/** A taller type must still fit every device of it where it is mounted. */
async function checkTaller(row: Row, ctx: ValidateContext): Promise<void> {
  const mounted = (await ctx.db('dcim_device').select('id', 'name', 'rack_id', 'position', 'face').where('device_type_id', row.id as number).whereNotNull('position')) as Row[];
  if (!mounted.length) return;
  const racks = [...new Set(mounted.map((d) => d.rack_id as number))];
  const others = await placementsIn(ctx, racks, mounted.map((d) => d.id as number));
  for (const device of mounted) {
    const rack = await ctx.stored(ctx.registry.get('dcim.rack'), device.rack_id as number);
    const mine = { rack: device.rack_id as number, position: Number(device.position), height: height(row), face: device.face as string, fullDepth: row.is_full_depth as boolean };
    if (rack && (!fitsRack(rack, mine) || others.some((o) => o.rack === mine.rack && collides(mine, o)))) {
      throw ValidationError.of('u_height', `Device ${device.name ?? device.id} in rack ${rack.name} does not have sufficient space to accommodate a height of ${units(height(row))}U`);
    }
    others.push(mine);
  }
}

export const DeviceType = defineModel('dcim.devicetype', {
  path: 'device-types',
  verboseName: 'device type',
  fields: {
    manufacturer: f.fk('dcim.manufacturer', { onDelete: 'protect', countAs: 'devicetype_count', related: 'device_types' }),
    default_platform: f.fk('dcim.platform', { nullable: true }),
    model: f.string({ max: 100 }),
    slug: f.slug({ max: 100 }),
    part_number: f.string({ max: 50, blank: true }),
    u_height: f.decimal({ digits: 4, places: 1, min: 0, max: 100, default: 1 }),
    exclude_from_utilization: f.boolean({ default: false }),
    is_full_depth: f.boolean({ default: true }),
    subdevice_role: f.choice(SubdeviceRole, { nullable: true }),
    airflow: f.choice(DeviceAirflow, { nullable: true }),
    weight: f.decimal({ digits: 8, places: 2, min: 0, nullable: true }),
    weight_unit: f.choice(WeightUnit, { nullable: true }),
    front_image: f.image({ folder: 'devicetype-images', nullable: true }),
    rear_image: f.image({ folder: 'devicetype-images', nullable: true }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['manufacturer', 'model'] }, { fields: ['manufacturer', 'slug'] }],
  brief: ['manufacturer', 'model', 'slug', 'description', 'device_count'],
  display: (row) => String(row.model),
  displayUses: ['model'],
  ordering: ['manufacturer', 'model'],
  search: ['manufacturer', 'model', 'part_number', 'description', 'comments'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'imageAttachments'],
  filters: hasTemplates('device_type_id', [
    'console_ports', 'console_server_ports', 'power_ports', 'power_outlets', 'interfaces', 'pass_through_ports', 'module_bays', 'device_bays', 'inventory_items',
  ]),
  async validate(row, ctx) {
    const u = height(row);
    if ((u * 10) % 5) throw ValidationError.of('u_height', 'U height must be in increments of 0.5 rack units.');
    checkWeight(row);
    if (u && row.subdevice_role === 'child') throw ValidationError.of('u_height', 'Child device types must be 0U.');
    if (!ctx.instance) return;
    const id = row.id as number;
    if (u > height(ctx.instance)) await checkTaller(row, ctx);
    if (u === 0 && height(ctx.instance) > 0) {
      const racked = await countRows(ctx, 'dcim_device', 'device_type_id', id, (qb) => qb.whereNotNull('position'));
      if (racked) throw ValidationError.of('u_height', `Unable to set 0U height: Found ${racked} instances already mounted within racks.`);
    }
    if (row.subdevice_role !== 'parent' && (await countRows(ctx, 'dcim_devicebaytemplate', 'device_type_id', id))) {
      throw ValidationError.of('subdevice_role', 'Must delete all device bay templates associated with this device before declassifying it as a parent device.');
    }
  },
});
