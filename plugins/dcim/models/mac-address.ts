import { ValidationError, defineModel, f } from 'patchbay';
import { MacAddressField } from '../fields/mac-address.js';
import { macFilters } from '../rules/mac-filters.js';

export const MacAddress = defineModel('dcim.macaddress', {
  path: 'mac-addresses',
  verboseName: 'MAC address',
  verboseNamePlural: 'MAC addresses',
  fields: {
    mac_address: new MacAddressField({}),
    assigned_object: f.generic({ feature: 'macAddresses', nullable: true, related: 'mac_addresses', union: 'MACAddressAssignmentType' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['mac_address', 'description'],
  display: (row) => String(row.mac_address).toUpperCase(),
  displayUses: ['mac_address'],
  ordering: ['mac_address', 'id'],
  search: ['mac_address:icontains', 'description'],
  filters: macFilters,
  parent: 'assigned_object',
  features: ['tags', 'customFields', 'changelog', 'journal'],
  // The primary MAC address of an interface stays on it.
  async validate(row, ctx) {
    const before = ctx.instance;
    if (!before?.assigned_object_id) return;
    const moved = before.assigned_object_id !== row.assigned_object_id || before.assigned_object_type_id !== row.assigned_object_type_id;
    if (!moved) return;
    const owner = ctx.registry.find(ctx.registry.objectTypes.keyOf(before.assigned_object_type_id as number) ?? '');
    const holder = owner && (await ctx.stored(owner, before.assigned_object_id as number));
    if (holder?.primary_mac_address_id !== row.id) return;
    throw ValidationError.of(
      '__all__',
      row.assigned_object_id
        ? 'Cannot reassign MAC Address while it is designated as the primary MAC for an object'
        : 'Cannot unassign MAC Address while it is designated as the primary MAC for an object',
    );
  },
});
