import { defineModel, f } from 'patchbay';
import { VidRangesField } from '../fields/vid-ranges.js';
import { VlanGroupUtilization } from '../fields/vlan-utilization.js';
import { scopedTo } from '../rules/scope-filters.js';

/** What a VLAN group may be scoped to (clusters and cluster groups once virtualization exists). */
export const VLAN_GROUP_SCOPES = ['dcim.region', 'dcim.sitegroup', 'dcim.site', 'dcim.location', 'dcim.rack', 'virtualization.clustergroup', 'virtualization.cluster'];

export const VlanGroup = defineModel('ipam.vlangroup', {
  path: 'vlan-groups',
  verboseName: 'VLAN group',
  fields: {
    name: f.string({ max: 100 }),
    slug: f.slug({ max: 100 }),
    scope: f.generic({ models: VLAN_GROUP_SCOPES, nullable: true, related: 'vlan_groups' }),
    vid_ranges: new VidRangesField({ label: 'VLAN ID ranges' }),
    tenant: f.fk('tenancy.tenant', { nullable: true }),
    description: f.string({ max: 200, blank: true }),
    utilization: new VlanGroupUtilization(),
  },
  unique: [
    { fields: ['scope', 'name'] },
    { fields: ['scope', 'slug'] },
    { fields: ['name'], whenNull: ['scope'], message: 'VLAN group name must be unique.' },
    { fields: ['slug'], whenNull: ['scope'], message: 'VLAN group slug must be unique.' },
  ],
  brief: ['name', 'slug', 'description', 'vlan_count'],
  ordering: ['name', 'id'],
  search: ['name', 'description'],
  filters: {
    region: scopedTo('dcim.region'),
    site_group: scopedTo('dcim.sitegroup'),
    site: scopedTo('dcim.site'),
    location: scopedTo('dcim.location'),
    rack: scopedTo('dcim.rack'),
    cluster_group: scopedTo('virtualization.clustergroup'),
    cluster: scopedTo('virtualization.cluster'),
  },
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
