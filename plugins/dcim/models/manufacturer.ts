import { defineModel, f } from 'patchbay';

export const Manufacturer = defineModel('dcim.manufacturer', {
  path: 'manufacturers',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
});
