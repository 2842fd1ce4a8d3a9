import { defineModel, f } from 'patchbay';

export const DeviceRole = defineModel('dcim.devicerole', {
  path: 'device-roles',
  verboseName: 'device role',
  fields: {
    name: f.string({ max: 100 }),
    slug: f.slug({ max: 100 }),
    color: f.color({ default: '9e9e9e' }),
    vm_role: f.boolean({ default: true }),
    parent: f.parent('dcim.devicerole', { nested: ['id', 'url', 'display_url', 'display', 'name'], related: 'children' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [
    { fields: ['parent', 'name'] },
    { fields: ['name'], whenNull: ['parent'], message: 'A top-level device role with this name already exists.' },
    { fields: ['parent', 'slug'] },
    { fields: ['slug'], whenNull: ['parent'], message: 'A top-level device role with this slug already exists.' },
  ],
  brief: ['name', 'slug', 'description', 'device_count', '_depth'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'configTemplates'],
});
