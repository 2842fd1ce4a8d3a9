import { ValidationError, defineModel, f, orderedFilter, parseWholeNumber } from 'patchbay';
import { VlanQinQRole, VlanStatus } from '../choices.js';
import { VID_MAX, VID_MIN, rangesOf, rangesText } from '../fields/vid-ranges.js';
import { vlanAvailabilityFilters, vlansOfInterface } from '../rules/vlan-availability.js';

export const Vlan = defineModel('ipam.vlan', {
  path: 'vlans',
  verboseName: 'VLAN',
  verboseNamePlural: 'VLANs',
  fields: {
    site: f.fk('dcim.site', { nullable: true, onDelete: 'protect', countAs: 'vlan_count', related: 'vlans' }),
    group: f.fk('ipam.vlangroup', { nullable: true, onDelete: 'protect', countAs: 'vlan_count', related: 'vlans' }),
    vid: f.integer({ min: VID_MIN, max: VID_MAX, label: 'VID' }),
    name: f.string({ max: 64 }),
    tenant: f.fk('tenancy.tenant', { nullable: true, countAs: 'vlan_count', related: 'vlans' }),
    status: f.choice(VlanStatus, { default: 'active' }),
    role: f.fk('ipam.role', { nullable: true, countAs: 'vlan_count', related: 'vlans' }),
    description: f.string({ max: 200, blank: true }),
    // Spec §2.5.
    display_name: f.displayName(),
    qinq_role: f.choice(VlanQinQRole, { nullable: true, label: 'Q-in-Q role' }),
    qinq_svlan: f.fk('ipam.vlan', { nullable: true, nested: ['id', 'url', 'display', 'vid', 'name', 'description'], label: 'Q-in-Q SVLAN' }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['group', 'vid'] }, { fields: ['group', 'name'] }, { fields: ['qinq_svlan', 'vid'] }, { fields: ['qinq_svlan', 'name'] }],
  brief: ['vid', 'name', 'description'],
  display: (row) => `${row.name} (${row.vid})`,
  displayUses: ['name', 'vid'],
  ordering: ['site', 'group', 'vid', 'id'],
  search: ['name', 'description', 'vid'],
  relatedFilters: { region: 'site__region', site_group: 'site__group' },
  filters: {
    qinq_svlan_vid: orderedFilter(['qinq_svlan', 'vid'], parseWholeNumber),
    ...vlanAvailabilityFilters,
    interface_id: vlansOfInterface('dcim_interface', 'dcim_interface_tagged_vlans', 'interface_id'),
  },
  features: ['tags', 'customFields', 'changelog', 'journal'],
  // A VLAN of a group takes an ID of its ranges, and agrees with a site-scoped group on the site.
  async validate(row, ctx) {
    if (row.group_id) {
      const group = await ctx.stored(ctx.registry.get('ipam.vlangroup'), row.group_id as number);
      if (group) {
        const ranges = rangesOf(group.vid_ranges);
        const vid = Number(row.vid);
        if (!ranges.some(([lo, hi]) => lo <= vid && vid <= hi)) {
          throw ValidationError.of('vid', `VID must be in ranges ${rangesText(ranges)} for VLANs in group ${group.name}`);
        }
        const siteType = ctx.registry.objectTypes.idOf('dcim.site');
        if (row.site_id && group.scope_type_id === siteType && group.scope_id !== row.site_id) {
          const [site, scope] = await Promise.all([
            ctx.stored(ctx.registry.get('dcim.site'), row.site_id as number),
            ctx.stored(ctx.registry.get('dcim.site'), group.scope_id as number),
          ]);
          throw ValidationError.of('__all__', `VLAN is assigned to group ${group.name} (scope: ${scope?.name}); cannot also assign to site ${site?.name}.`);
        }
      }
    }
    if (row.qinq_svlan_id && row.qinq_role !== 'cvlan') throw ValidationError.of('qinq_svlan', 'Only Q-in-Q customer VLANs maybe assigned to a service VLAN.');
    if (row.qinq_role === 'cvlan' && !row.qinq_svlan_id) throw ValidationError.of('qinq_svlan', 'A Q-in-Q customer VLAN must be assigned to a service VLAN.');
  },
});
