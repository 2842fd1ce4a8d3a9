import { defineModel, f } from '../../../kernel/index.js';

export const Region = defineModel('dcim.region', {
  path: 'regions',
  fields: {
    name: f.string({ max: 100 }),
    slug: f.slug({ max: 100 }),
    parent: f.parent('dcim.region', { nested: ['id', 'url', 'display_url', 'display', 'name', 'slug', 'site_count', '_depth'], related: 'children' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [
    { fields: ['parent', 'name'] },
    { fields: ['name'], whenNull: ['parent'], message: 'A top-level region with this name already exists.' },
    { fields: ['parent', 'slug'] },
    { fields: ['slug'], whenNull: ['parent'], message: 'A top-level region with this slug already exists.' },
  ],
  brief: ['name', 'slug', 'description', 'site_count', '_depth'],
  ordering: ['parent'],
  search: ['name', 'slug', 'description', 'comments'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
});
