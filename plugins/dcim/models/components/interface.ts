import { ValidationError, f, type Row, type ValidateContext } from 'patchbay';
import { InterfaceDuplex, InterfaceMode, InterfacePoEMode, InterfacePoEType, InterfaceType, VIRTUAL_INTERFACE_TYPES, WIRELESS_INTERFACE_TYPES, WirelessChannel, WirelessRole } from '../../choices/index.js';
import { PrimaryMacField } from '../../fields/primary-mac.js';
import { WwnField } from '../../fields/wwn.js';
import { interfaceFilters } from '../../rules/interface-filters.js';
import { checkInterface } from '../../rules/interface-rules.js';
import { checkPrimaryMac } from '../../rules/primary-mac.js';
import { defineComponent } from './component.js';

/** How an interface nests inside another (its parent, bridge or LAG). */
const NESTED = ['id', 'url', 'display_url', 'display', 'device', 'name', 'cable', '_occupied'];

/** Virtual and wireless interfaces take no cable (NetBox's NONCONNECTABLE_IFACE_TYPES). */
const unconnectable = (type: string) => VIRTUAL_INTERFACE_TYPES.has(type) || WIRELESS_INTERFACE_TYPES.has(type);

/** A wireless channel value (`5g-36-5180-20`) carries its frequency and width in MHz. */
function channel(value: string): { frequency: number; width: number } {
  const [, , frequency, width] = value.split('-');
  return { frequency: Number(frequency), width: Number(width) };
}

/** Parent, bridge and LAG interfaces belong to the same device, or to a device of its virtual chassis. */
async function sameDeviceOrChassis(row: Row, field: 'parent' | 'bridge' | 'lag', ctx: ValidateContext): Promise<void> {
  const id = row[`${field}_id`] as number | null;
  if (!id) return;
  const other = await ctx.stored(Interface, id);
  if (!other || other.device_id === row.device_id) return;
  const devices = ctx.registry.get('dcim.device');
  const [own, theirs] = await Promise.all([ctx.stored(devices, row.device_id as number), ctx.stored(devices, other.device_id as number)]);
  const name = (d: Row | undefined) => String(d?.name ?? `device ${d?.id}`);
  const kind = { parent: 'parent interface', bridge: 'bridge interface', lag: 'LAG interface' }[field];
  if (!own?.virtual_chassis_id) {
    const suffix = field === 'parent' ? '' : '.';
    throw ValidationError.of(field, `The selected ${kind} (${other.name}) belongs to a different device (${name(theirs)})${suffix}`);
  }
  if (theirs?.virtual_chassis_id !== own.virtual_chassis_id) {
    const chassis = await ctx.stored(ctx.registry.get('dcim.virtualchassis'), own.virtual_chassis_id as number);
    throw ValidationError.of(field, `The selected ${kind} (${other.name}) belongs to ${name(theirs)}, which is not part of virtual chassis ${chassis?.name}.`);
  }
}

export const Interface = defineComponent('dcim.interface', {
  path: 'interfaces',
  verboseName: 'interface',
  countAs: 'interface_count',
  deviceKeys: ['id', 'url', 'display', 'name', 'description', 'display_name'],
  fields: {
    vdcs: f.m2m('dcim.virtualdevicecontext', { filterName: 'vdc', countAs: 'interface_count', related: 'interfaces' }),
    type: f.choice(InterfaceType),
    enabled: f.boolean({ default: true }),
    parent: f.fk('dcim.interface', { nullable: true, onDelete: 'protect', nested: NESTED, related: 'child_interfaces' }),
    bridge: f.fk('dcim.interface', { nullable: true, nested: NESTED, related: 'bridge_interfaces' }),
    bridge_interfaces: f.reverse('dcim.interface', 'bridge', { many: true, nested: NESTED }),
    lag: f.fk('dcim.interface', { nullable: true, nested: NESTED, related: 'member_interfaces' }),
    mtu: f.integer({ min: 1, max: 65536, nullable: true }),
    mac_address: new PrimaryMacField(),
    primary_mac_address: f.fk('dcim.macaddress', { nullable: true, unique: true, filterBy: 'mac_address' }),
    mac_addresses: f.reverse('dcim.macaddress', 'assigned_object', { many: true }),
    speed: f.integer({ min: 0, max: 2147483647, nullable: true }),
    duplex: f.choice(InterfaceDuplex, { nullable: true }),
    wwn: new WwnField({ nullable: true }),
    mgmt_only: f.boolean({ default: false }),
  },
  tail: {
    mode: f.choice(InterfaceMode, { blank: true }),
    rf_role: f.choice(WirelessRole, { blank: true }),
    rf_channel: f.choice(WirelessChannel, { blank: true }),
    poe_mode: f.choice(InterfacePoEMode, { blank: true }),
    poe_type: f.choice(InterfacePoEType, { blank: true }),
    rf_channel_frequency: f.decimal({ digits: 7, places: 2, nullable: true }),
    rf_channel_width: f.decimal({ digits: 7, places: 3, nullable: true }),
    tx_power: f.integer({ min: -40, max: 127, nullable: true }),
  },
  cable: {
    connectsTo: ['dcim.interface', 'dcim.frontport', 'dcim.rearport'],
    refuse: (row) => (unconnectable(row.type as string) ? `Cables cannot be terminated to ${InterfaceType.label(row.type as string)} interfaces` : undefined),
  },
  features: ['inventoryTarget', 'macAddresses', 'ipAddresses'],
  filters: interfaceFilters,
  async validate(row, ctx) {
    checkInterface(row);
    const type = row.type as string;
    const virtual = VIRTUAL_INTERFACE_TYPES.has(type);
    const wireless = WIRELESS_INTERFACE_TYPES.has(type);
    if (virtual && row.mark_connected) throw ValidationError.of('mark_connected', `${InterfaceType.label(type)} interfaces cannot be marked as connected.`);
    if (unconnectable(type) && row.cable_id) throw ValidationError.of('type', `${InterfaceType.label(type)} interfaces cannot have a cable attached.`);
    if (row.id !== undefined && row.parent_id === row.id) throw ValidationError.of('parent', 'An interface cannot be its own parent.');
    if (type !== 'virtual' && row.parent_id) throw ValidationError.of('parent', 'Only virtual interfaces may be assigned to a parent interface.');
    if (type === 'virtual' && row.lag_id) throw ValidationError.of('lag', 'Virtual interfaces cannot have a parent LAG interface.');
    if (row.id !== undefined && row.lag_id === row.id) throw ValidationError.of('lag', 'A LAG interface cannot be its own parent.');
    for (const field of ['parent', 'bridge', 'lag'] as const) await sameDeviceOrChassis(row, field, ctx);
    if (row.rf_channel && !wireless) throw ValidationError.of('rf_channel', 'Channel may be set only on wireless interfaces.');
    const selected = row.rf_channel ? channel(row.rf_channel as string) : undefined;
    if (row.rf_channel_frequency !== null && row.rf_channel_frequency !== undefined) {
      if (!wireless) throw ValidationError.of('rf_channel_frequency', 'Channel frequency may be set only on wireless interfaces.');
      if (selected && Number(row.rf_channel_frequency) !== selected.frequency) throw ValidationError.of('rf_channel_frequency', 'Cannot specify custom frequency with channel selected.');
    }
    if (row.rf_channel_width !== null && row.rf_channel_width !== undefined) {
      if (!wireless) throw ValidationError.of('rf_channel_width', 'Channel width may be set only on wireless interfaces.');
      if (selected && Number(row.rf_channel_width) !== selected.width) throw ValidationError.of('rf_channel_width', 'Cannot specify custom width with channel selected.');
    }
    await checkPrimaryMac(row, Interface, ctx);
  },
  hooks: {
    // A selected channel sets its frequency and width.
    beforeSave(item) {
      const value = item.row.rf_channel as string;
      if (!value) return;
      const { frequency, width } = channel(value);
      if (item.row.rf_channel_frequency === null || item.row.rf_channel_frequency === undefined) item.columns.rf_channel_frequency = frequency.toFixed(2);
      if (item.row.rf_channel_width === null || item.row.rf_channel_width === undefined) item.columns.rf_channel_width = width.toFixed(3);
    },
  },
});
