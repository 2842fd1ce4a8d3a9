import { defineModel, f, orderedFilter, parseWholeNumber } from 'patchbay';
import { PrefixStatus } from '../choices.js';
import { FamilyField } from '../fields/family.js';
import { NetworkField, withMask } from '../fields/network.js';
import { maskLengthFilter, networkFilter } from '../rules/network-filters.js';
import { presentInVrfFilters } from '../rules/present-in-vrf.js';
import { scopePlaceFilters } from '../rules/scope-place-filters.js';
import { uniqueInVrf } from '../rules/unique-in-vrf.js';
import { refuseZeroMask } from '../rules/zero-mask.js';

/** Where a prefix may be scoped. */
export const PREFIX_SCOPES = ['dcim.region', 'dcim.sitegroup', 'dcim.site', 'dcim.location'];

export const Prefix = defineModel('ipam.prefix', {
  path: 'prefixes',
  fields: {
    family: new FamilyField('prefix'),
    prefix: new NetworkField({ hierarchy: true, hostIndex: true }),
    vrf: f.fk('ipam.vrf', { nullable: true, onDelete: 'protect', countAs: 'prefix_count', filterBy: 'rd', nullsFirst: true, related: 'prefixes' }),
    scope: f.generic({ models: PREFIX_SCOPES, nullable: true, related: 'prefixes' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, countAs: 'prefix_count', related: 'prefixes' }),
    vlan: f.fk('ipam.vlan', { nullable: true, countAs: 'prefix_count', related: 'prefixes' }),
    status: f.choice(PrefixStatus, { default: 'active' }),
    role: f.fk('ipam.role', { nullable: true, countAs: 'prefix_count', related: 'prefixes' }),
    is_pool: f.boolean({ default: false }),
    mark_utilized: f.boolean({ default: false }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['family', 'prefix', 'description', '_depth'],
  display: (row) => withMask(String(row.prefix)),
  displayUses: ['prefix'],
  // NetBox: the global table first, then by VRF, then in address order (IPv4 before IPv6).
  ordering: ['vrf', 'prefix', 'id'],
  search: ['description', 'prefix:contains', 'prefix:net_contains_or_equals'],
  relatedFilters: { vlan_group: 'vlan__group' },
  filters: {
    vlan_vid: orderedFilter(['vlan', 'vid'], parseWholeNumber),
    prefix: networkFilter('prefix', 'exact'),
    within: networkFilter('prefix', 'within'),
    within_include: networkFilter('prefix', 'within_include'),
    contains: networkFilter('prefix', 'contains'),
    mask_length: maskLengthFilter('prefix'),
    ...presentInVrfFilters,
    ...scopePlaceFilters,
  },
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
  validate: (row) => refuseZeroMask(row, 'prefix', 'prefix'),
  check: uniqueInVrf({ table: 'ipam_prefix', column: 'prefix', same: 'network', noun: 'prefix' }),
});
