import { defineModel, f } from 'patchbay';

export const Vrf = defineModel('ipam.vrf', {
  path: 'vrfs',
  verboseName: 'VRF',
  verboseNamePlural: 'VRFs',
  fields: {
    name: f.string({ max: 100 }),
    // Route distinguisher (RFC 4364); optional, unique when given.
    rd: f.string({ max: 21, nullable: true, unique: true, label: 'Route distinguisher' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, countAs: 'vrf_count', related: 'vrfs' }),
    enforce_unique: f.boolean({ default: true }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
    import_targets: f.m2m('ipam.routetarget', { filterName: 'import_target', related: 'importing_vrfs' }),
    export_targets: f.m2m('ipam.routetarget', { filterName: 'export_target', related: 'exporting_vrfs' }),
  },
  brief: ['name', 'rd', 'description', 'prefix_count'],
  display: (row) => (row.rd ? `${row.name} (${row.rd})` : String(row.name)),
  displayUses: ['name', 'rd'],
  ordering: ['name', 'rd', 'id'],
  search: ['name', 'rd', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
