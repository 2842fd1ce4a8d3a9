import { defineModel, f } from '../../../kernel/index.js';

export const Platform = defineModel('dcim.platform', {
  path: 'platforms',
  fields: {
    parent: f.parent('dcim.platform', { nested: ['id', 'url', 'display_url', 'display', 'name'] }),
    name: f.string({ max: 100 }),
    slug: f.slug({ max: 100 }),
    manufacturer: f.fk('dcim.manufacturer', { nullable: true, onDelete: 'protect', countAs: 'platform_count' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [
    { fields: ['manufacturer', 'name'] },
    { fields: ['name'], whenNull: ['manufacturer'], message: 'Platform name must be unique.' },
    { fields: ['manufacturer', 'slug'] },
    { fields: ['slug'], whenNull: ['manufacturer'], message: 'Platform slug must be unique.' },
  ],
  brief: ['name', 'slug', 'description', 'device_count', '_depth'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
