import { defineModel, f } from 'patchbay';

export const Rir = defineModel('ipam.rir', {
  path: 'rirs',
  verboseName: 'RIR',
  verboseNamePlural: 'RIRs',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    is_private: f.boolean({ default: false }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'slug', 'description', 'aggregate_count'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
