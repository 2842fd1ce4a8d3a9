import { defineChoices, defineModel, f } from 'patchbay';

export const SessionStatus = defineChoices([
  ['planned', 'Planned'],
  ['active', 'Active'],
  ['offline', 'Offline'],
]);

/** A BGP session of a device with a peer: its addresses, the peer's AS, and what it imports and exports. */
export const Session = defineModel('bgp.session', {
  path: 'sessions',
  className: 'BGPSession',
  fields: {
    name: f.string({ max: 100, natural: true }),
    // A setting of the plugin's (`default_status`), read once at start.
    status: f.choice(SessionStatus, { default: (config) => String(config.default_status) }),
    device: f.fk('dcim.device', { onDelete: 'cascade', related: 'bgp_sessions' }),
    local_address: f.fk('ipam.ipaddress', { nullable: true }),
    remote_address: f.fk('ipam.ipaddress', { related: 'bgp_peerings' }),
    remote_as: f.integer({ min: 1, max: 4294967295, big: true, label: 'Remote AS' }),
    // Filtered as `?import_policies_id=` and `?import_policies=` (by name), as the fields are named.
    import_policies: f.m2m('bgp.routingpolicy', { related: 'importing_sessions' }),
    export_policies: f.m2m('bgp.routingpolicy', { related: 'exporting_sessions' }),
    communities: f.m2m('bgp.community', { filterBy: 'value', filterName: 'community' }),
    description: f.string({ max: 200, blank: true }),
  },
  unique: [{ fields: ['device', 'name'] }],
  brief: ['name', 'status', 'description'],
  ordering: ['device', 'name'],
  search: ['name', 'description'],
  parent: 'device',
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
