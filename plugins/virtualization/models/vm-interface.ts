import { ValidationError, defineModel, f, type Row, type ValidateContext } from 'patchbay';
import { InterfaceMode, PrimaryMacField, interfacesWithMacs, macValues, checkPrimaryMac } from '../../dcim/api.js';

/** How a VM interface nests inside another (its parent or bridge). */
const NESTED = ['id', 'url', 'display_url', 'display', 'virtual_machine', 'name'];

/** A parent or bridge interface is another interface of the same virtual machine. */
async function sameMachine(row: Row, field: 'parent' | 'bridge', ctx: ValidateContext): Promise<void> {
  const id = row[`${field}_id`] as number | null;
  if (!id) return;
  if (id === row.id) throw ValidationError.of(field, field === 'parent' ? 'An interface cannot be its own parent.' : 'An interface cannot be bridged to itself.');
  const other = await ctx.stored(VmInterface, id);
  if (!other || other.virtual_machine_id === row.virtual_machine_id) return;
  const machine = await ctx.stored(ctx.registry.get('virtualization.virtualmachine'), other.virtual_machine_id as number);
  throw ValidationError.of(field, `The selected ${field} interface (${other.name}) belongs to a different virtual machine (${machine?.name}).`);
}

export const VmInterface = defineModel('virtualization.vminterface', {
  path: 'interfaces',
  verboseName: 'interface',
  className: 'VMInterface',
  fields: {
    virtual_machine: f.fk('virtualization.virtualmachine', { onDelete: 'cascade', countAs: 'interface_count', related: 'interfaces' }),
    name: f.string({ max: 64, natural: true }),
    enabled: f.boolean({ default: true }),
    parent: f.fk('virtualization.vminterface', { nullable: true, onDelete: 'protect', nested: NESTED, related: 'child_interfaces' }),
    bridge: f.fk('virtualization.vminterface', { nullable: true, nested: NESTED, related: 'bridge_interfaces' }),
    mtu: f.integer({ min: 1, max: 65536, nullable: true, label: 'MTU' }),
    mac_address: new PrimaryMacField(),
    primary_mac_address: f.fk('dcim.macaddress', { nullable: true, unique: true, filterBy: 'mac_address' }),
    mac_addresses: f.reverse('dcim.macaddress', 'assigned_object', { many: true }),
    description: f.string({ max: 200, blank: true }),
    mode: f.choice(InterfaceMode, { blank: true }),
  },
  unique: [{ fields: ['virtual_machine', 'name'] }],
  brief: ['virtual_machine', 'name', 'description'],
  ordering: ['virtual_machine', 'name', 'id'],
  search: ['name', 'description'],
  parent: 'virtual_machine',
  relatedFilters: { cluster: 'virtual_machine__cluster' },
  filters: {
    mac_address: {
      suffixes: [],
      build: (_s, values, ctx) => {
        const macs = macValues(values);
        return { op: 'sql', condition: (qb, alias, _m, db) => void qb.whereIn(`${alias}.id`, interfacesWithMacs(db, ctx.registry, macs, 'virtualization.vminterface')) };
      },
    },
  },
  features: ['tags', 'customFields', 'changelog', 'journal', 'macAddresses', 'ipAddresses'],
  async validate(row, ctx) {
    await sameMachine(row, 'parent', ctx);
    await sameMachine(row, 'bridge', ctx);
    await checkPrimaryMac(row, VmInterface, ctx);
  },
});
