import { defineModel, f, loadDisplays, type RenderContext, type Row } from 'patchbay';
import { interfaceOwnerFilters } from '../rules/assignment-filters.js';

/** `Gi0/1: VRRPv2: 10 (100)`: the interface, the group and the priority. */
async function assignmentDisplays(rows: Row[], ctx: RenderContext): Promise<Map<number, string>> {
  const { registry } = ctx;
  const groups = await loadDisplays(registry.get('ipam.fhrpgroup'), rows.map((r) => r.group_id as number), ctx);
  const interfaces = new Map<string, string>();
  for (const typeId of new Set(rows.map((r) => r.interface_type_id as number))) {
    const model = registry.find(registry.objectTypes.keyOf(typeId) ?? '');
    if (!model) continue;
    const shown = await loadDisplays(model, rows.filter((r) => r.interface_type_id === typeId).map((r) => r.interface_id as number), ctx);
    for (const [id, text] of shown) interfaces.set(`${typeId}:${id}`, text);
  }
  return new Map(rows.map((r) => [r.id as number, `${interfaces.get(`${r.interface_type_id}:${r.interface_id}`) ?? ''}: ${groups.get(r.group_id as number) ?? ''} (${r.priority})`]));
}

export const FhrpGroupAssignment = defineModel('ipam.fhrpgroupassignment', {
  path: 'fhrp-group-assignments',
  verboseName: 'FHRP group assignment',
  fields: {
    group: f.fk('ipam.fhrpgroup', { onDelete: 'cascade', related: 'fhrpgroupassignment_set' }),
    interface: f.generic({ models: ['dcim.interface', 'virtualization.vminterface'], union: 'FHRPGroupInterfaceType' }),
    priority: f.integer({ min: 0, max: 255 }),
  },
  unique: [{ fields: ['interface', 'group'] }],
  brief: ['group', 'interface_type', 'interface_id', 'priority'],
  displayLoader: assignmentDisplays,
  displayUses: ['group', 'interface', 'priority'],
  ordering: ['-priority', 'id'],
  parent: 'group',
  filters: interfaceOwnerFilters('interface'),
  features: ['changelog'],
});
