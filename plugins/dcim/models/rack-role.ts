import { defineModel, f } from 'patchbay';

export const RackRole = defineModel('dcim.rackrole', {
  path: 'rack-roles',
  verboseName: 'rack role',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    color: f.color({ default: '9e9e9e' }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'slug', 'description', 'rack_count'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
