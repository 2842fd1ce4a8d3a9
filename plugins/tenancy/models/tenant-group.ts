import { defineModel, f } from '../../../kernel/index.js';

export const TenantGroup = defineModel('tenancy.tenantgroup', {
  path: 'tenant-groups',
  verboseName: 'tenant group',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    parent: f.parent('tenancy.tenantgroup', { nested: ['id', 'url', 'display_url', 'display', 'name', 'slug', 'tenant_count', '_depth'], related: 'children' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['name', 'slug', 'description', 'tenant_count', '_depth'],
  ordering: ['name'],
  search: ['name', 'slug', 'description', 'comments'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'imageAttachments'],
});
