import { defineModel, f } from 'patchbay';
import { routeTargetFilters } from '../rules/route-target-filters.js';

export const RouteTarget = defineModel('ipam.routetarget', {
  path: 'route-targets',
  verboseName: 'route target',
  fields: {
    name: f.string({ max: 21, unique: true }),
    tenant: f.fk('tenancy.tenant', { nullable: true, related: 'route_targets' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description'],
  filters: routeTargetFilters,
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
