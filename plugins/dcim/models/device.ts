import { ValidationError, defineModel, f, loadDisplays, type CheckedRow, type ErrorMap, type RenderContext, type Row, type ValidateContext, type WriteScope } from 'patchbay';
import { DeviceAirflow, DeviceFace, DeviceStatus } from '../choices/index.js';
import { ParentDeviceField } from '../fields/parent-device.js';
import { deviceFilters } from '../rules/device-filters.js';
import { moveChildren } from '../rules/child-devices.js';
import { instantiateComponents } from '../rules/instantiate.js';
import { collides, fitsRack, placementsIn, units, type Placement } from '../rules/rack-space.js';
import { height } from './device-type.js';

/**
 * NetBox's device display: its name (or `<virtual chassis>:<position>`), with the asset tag in brackets; unnamed
 * devices show their type (`Arista DCS-7280 (12)`). Types and chassis are loaded only for the rows that need them.
 */
async function deviceDisplays(rows: Row[], ctx: RenderContext): Promise<Map<number, string>> {
  const chassis = await loadDisplays(ctx.registry.get('dcim.virtualchassis'), rows.filter((r) => !r.name && r.virtual_chassis_id).map((r) => r.virtual_chassis_id as number), ctx);
  const label = (r: Row) => (r.name ? String(r.name) : r.virtual_chassis_id && chassis.has(r.virtual_chassis_id as number) ? `${chassis.get(r.virtual_chassis_id as number)}:${r.vc_position}` : '');
  const typeIds = [...new Set(rows.filter((r) => !label(r)).map((r) => r.device_type_id as number))];
  const types = typeIds.length
    ? ((await ctx.db('dcim_devicetype as t').join('dcim_manufacturer as m', 'm.id', 't.manufacturer_id').select('t.id', 't.model', 'm.name as manufacturer').whereIn('t.id', typeIds)) as Row[])
    : [];
  const typeName = new Map(types.map((t) => [t.id as number, `${t.manufacturer} ${t.model}`]));
  return new Map(
    rows.map((r) => {
      const name = label(r);
      if (name) return [r.id as number, r.asset_tag ? `${name} (${r.asset_tag})` : name];
      return [r.id as number, `${typeName.get(r.device_type_id as number) ?? 'Device'} (${r.asset_tag ?? r.id})`];
    }),
  );
}

/** Site, location and rack agree; a position needs a rack and a face, in half units, on a type that takes space. */
async function checkPlacement(row: Row, ctx: ValidateContext): Promise<void> {
  const { registry } = ctx;
  const [site, location, rack, type] = await Promise.all([
    ctx.stored(registry.get('dcim.site'), row.site_id as number),
    row.location_id ? ctx.stored(registry.get('dcim.location'), row.location_id as number) : undefined,
    row.rack_id ? ctx.stored(registry.get('dcim.rack'), row.rack_id as number) : undefined,
    ctx.stored(registry.get('dcim.devicetype'), row.device_type_id as number),
  ]);
  if (rack && rack.site_id !== row.site_id) throw ValidationError.of('rack', `Rack ${rack.name} does not belong to site ${site?.name}.`);
  if (location && location.site_id !== row.site_id) throw ValidationError.of('location', `Location ${location.name} does not belong to site ${site?.name}.`);
  if (rack && location && rack.location_id !== location.id) throw ValidationError.of('rack', `Rack ${rack.name} does not belong to location ${location.name}.`);
  const position = row.position === null || row.position === undefined ? null : Number(row.position);
  if (!rack) {
    if (row.face) throw ValidationError.of('face', 'Cannot select a rack face without assigning a rack.');
    if (position) throw ValidationError.of('position', 'Cannot select a rack position without assigning a rack.');
  }
  if (position && (position * 10) % 5) throw ValidationError.of('position', 'Position must be in increments of 0.5 rack units.');
  if (position && !row.face) throw ValidationError.of('face', 'Must specify rack face when defining rack position.');
  if (!type) return;
  if (position && height(type) === 0) throw ValidationError.of('position', `A 0U device type (${type.model}) cannot be assigned to a rack position.`);
  if (rack && type.subdevice_role === 'child') {
    if (row.face) throw ValidationError.of('face', 'Child device types cannot be assigned to a rack face. This is an attribute of the parent device.');
    if (position) throw ValidationError.of('position', 'Child device types cannot be assigned to a rack position. This is an attribute of the parent device.');
  }
}

/** A platform limited to a manufacturer takes only that manufacturer's device types. */
async function checkPlatform(row: Row, ctx: ValidateContext): Promise<void> {
  if (!row.platform_id) return;
  const { registry } = ctx;
  const [platform, type] = await Promise.all([
    ctx.stored(registry.get('dcim.platform'), row.platform_id as number),
    ctx.stored(registry.get('dcim.devicetype'), row.device_type_id as number),
  ]);
  if (!platform?.manufacturer_id || !type || platform.manufacturer_id === type.manufacturer_id) return;
  const manufacturers = registry.get('dcim.manufacturer');
  const [limited, actual] = await Promise.all([ctx.stored(manufacturers, platform.manufacturer_id as number), ctx.stored(manufacturers, type.manufacturer_id as number)]);
  throw ValidationError.of(
    'platform',
    `The assigned platform is limited to ${limited?.name} device types, but this device's type belongs to ${actual?.name}.`,
  );
}

/**
 * Rack units must be free, of stored devices and of the write's other devices alike. The racks stay locked until
 * the write commits, so two writes cannot fill the same units; three queries whatever the number of devices.
 */
async function checkRackSpace(rows: CheckedRow[], scope: WriteScope): Promise<(ErrorMap | undefined)[]> {
  const { registry } = scope;
  const placed = rows.filter(({ row }) => row.rack_id && row.position !== null && row.position !== undefined);
  const racks = [...new Set(placed.map(({ row }) => row.rack_id as number))].sort((a, b) => a - b);
  const [rackRows, types] = await Promise.all([
    Promise.all(racks.map((id) => scope.stored(registry.get('dcim.rack'), id, { lock: true }))),
    Promise.all(placed.map(({ row }) => scope.stored(registry.get('dcim.devicetype'), row.device_type_id as number))),
  ]);
  const rackOf = new Map(rackRows.flatMap((r) => (r ? [[r.id as number, r]] : [])));
  const taken = await placementsIn(scope, racks, rows.flatMap(({ id }) => (id === undefined ? [] : [id])));
  const errors = new Map<CheckedRow, ErrorMap>();
  placed.forEach((item, n) => {
    const type = types[n];
    const rack = rackOf.get(item.row.rack_id as number);
    if (!type || !rack || height(type) === 0) return;
    const mine: Placement = { rack: rack.id as number, position: Number(item.row.position), height: height(type), face: item.row.face as string, fullDepth: type.is_full_depth as boolean };
    if (!fitsRack(rack, mine) || taken.some((other) => other.rack === mine.rack && collides(mine, other))) {
      errors.set(item, {
        position: [`U${units(mine.position)} is already occupied or does not have sufficient space to accommodate this device type: ${type.model} (${units(mine.height)}U)`],
      });
      return;
    }
    taken.push(mine);
  });
  return rows.map((r) => errors.get(r));
}

export const Device = defineModel('dcim.device', {
  path: 'devices',
  fields: {
    name: f.string({ max: 64, nullable: true, blank: true, natural: true }),
    // Spec §2.3: the device nested in an IP address's interface reads it.
    display_name: f.displayName(),
    device_type: f.fk('dcim.devicetype', { onDelete: 'protect', countAs: 'device_count', related: 'instances' }),
    role: f.fk('dcim.devicerole', { onDelete: 'protect', countAs: 'device_count', related: 'devices' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, onDelete: 'protect', countAs: 'device_count', related: 'devices' }),
    platform: f.fk('dcim.platform', { nullable: true, countAs: 'device_count', related: 'devices' }),
    serial: f.string({ max: 50, blank: true }),
    asset_tag: f.string({ max: 50, nullable: true, blank: true, unique: true }),
    site: f.fk('dcim.site', { onDelete: 'protect', countAs: 'device_count', related: 'devices' }),
    location: f.fk('dcim.location', { nullable: true, onDelete: 'protect', countAs: 'device_count', related: 'devices' }),
    rack: f.fk('dcim.rack', { nullable: true, onDelete: 'protect', countAs: 'device_count', related: 'devices' }),
    position: f.decimal({ digits: 4, places: 1, min: 1, max: 100.5, nullable: true }),
    face: f.choice(DeviceFace, { blank: true }),
    latitude: f.decimal({ digits: 8, places: 6, min: -90, max: 90, nullable: true }),
    longitude: f.decimal({ digits: 9, places: 6, min: -180, max: 180, nullable: true }),
    parent_device: new ParentDeviceField(),
    status: f.choice(DeviceStatus, { default: 'active' }),
    airflow: f.choice(DeviceAirflow, { blank: true }),
    virtual_chassis: f.fk('dcim.virtualchassis', { nullable: true, countAs: 'member_count', related: 'members' }),
    vc_position: f.integer({ min: 0, max: 255, nullable: true }),
    vc_priority: f.integer({ min: 0, max: 255, nullable: true }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
    local_context_data: f.json({ nullable: true, object: true }),
  },
  unique: [
    { fields: ['name', 'site', 'tenant'], lower: ['name'], message: 'Constraint “dcim_device_unique_name_site_tenant” is violated.' },
    { fields: ['name', 'site'], lower: ['name'], whenNull: ['tenant'], message: 'Device name must be unique per site.' },
    { fields: ['rack', 'position', 'face'] },
    { fields: ['virtual_chassis', 'vc_position'] },
  ],
  brief: ['name', 'description'],
  displayLoader: deviceDisplays,
  displayUses: ['name', 'asset_tag', 'virtual_chassis', 'vc_position', 'device_type'],
  ordering: ['name', 'id'],
  search: ['name', 'virtual_chassis', 'serial', 'asset_tag', 'description', 'comments', 'primary_ip4__address:startswith', 'primary_ip6__address:startswith'],
  relatedFilters: { region: 'site__region', site_group: 'site__group', manufacturer: 'device_type__manufacturer' },
  filters: deviceFilters,
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts', 'imageAttachments', 'configTemplates', 'configContexts'],
  async validate(row, ctx) {
    await checkPlacement(row, ctx);
    await checkPlatform(row, ctx);
    if (row.virtual_chassis_id && (row.vc_position === null || row.vc_position === undefined)) {
      throw ValidationError.of('vc_position', 'A device assigned to a virtual chassis must have its position defined.');
    }
    if (ctx.instance?.virtual_chassis_id && ctx.instance.virtual_chassis_id !== row.virtual_chassis_id) {
      const chassis = await ctx.stored(ctx.registry.get('dcim.virtualchassis'), ctx.instance.virtual_chassis_id as number);
      if (chassis && chassis.master_id === row.id) {
        throw ValidationError.of('virtual_chassis', `Device cannot be removed from virtual chassis ${chassis.name} because it is currently designated as its master.`);
      }
    }
  },
  check: checkRackSpace,
  hooks: {
    // A new device takes its type's airflow and default platform, and a racked device its rack's location.
    async beforeSave(item, session) {
      const { registry } = session;
      const row = item.row;
      if (item.action === 'create') {
        const type = await session.stored(registry.get('dcim.devicetype'), row.device_type_id as number);
        if (type && !row.airflow && type.airflow) item.columns.airflow = type.airflow;
        if (type && !row.platform_id && type.default_platform_id) item.columns.platform_id = type.default_platform_id;
      }
      const rack = row.rack_id ? await session.stored(registry.get('dcim.rack'), row.rack_id as number) : undefined;
      if (rack?.location_id) item.columns.location_id = rack.location_id;
    },
    async afterSave(items, session) {
      const created = items.filter((i) => i.action === 'create').map((i) => i.row);
      if (created.length) await instantiateComponents(session, created.map((device) => ({ device })));
      await moveChildren(items.filter((i) => i.action === 'update').map((i) => i.row), session);
    },
  },
});
