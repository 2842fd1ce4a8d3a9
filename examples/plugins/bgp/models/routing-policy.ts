import { defineModel, f } from 'patchbay';

/** A routing policy sessions apply to the routes they import or export. */
export const RoutingPolicy = defineModel('bgp.routingpolicy', {
  path: 'routing-policies',
  verboseName: 'routing policy',
  verboseNamePlural: 'routing policies',
  fields: {
    name: f.string({ max: 100, unique: true, natural: true }),
    weight: f.integer({ min: 0, max: 32767, default: 1000 }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'description'],
  ordering: ['weight', 'name'],
  search: ['name', 'description'],
  features: ['tags', 'changelog'],
});
