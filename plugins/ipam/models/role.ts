import { defineModel, f } from 'patchbay';

export const Role = defineModel('ipam.role', {
  path: 'roles',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    weight: f.integer({ min: 0, max: 32767, default: 1000 }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'slug', 'description', 'prefix_count', 'vlan_count'],
  ordering: ['weight', 'name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
