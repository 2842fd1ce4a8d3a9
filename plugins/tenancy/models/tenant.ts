import { defineModel, f } from 'patchbay';

export const Tenant = defineModel('tenancy.tenant', {
  path: 'tenants',
  fields: {
    name: f.string({ max: 100 }),
    slug: f.slug({ max: 100 }),
    group: f.fk('tenancy.tenantgroup', { nullable: true, countAs: 'tenant_count', related: 'tenants' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [
    { fields: ['group', 'name'], message: 'Tenant name must be unique per group.' },
    { fields: ['name'], whenNull: ['group'], message: 'Tenant name must be globally unique.' },
    { fields: ['group', 'slug'], message: 'Tenant slug must be unique per group.' },
    { fields: ['slug'], whenNull: ['group'], message: 'Tenant slug must be globally unique.' },
  ],
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
  search: ['name', 'slug', 'description', 'comments'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts', 'imageAttachments'],
});
