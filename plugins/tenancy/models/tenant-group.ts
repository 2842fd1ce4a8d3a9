import { defineModel, nestedGroup } from 'patchbay';

export const TenantGroup = defineModel('tenancy.tenantgroup', {
  path: 'tenant-groups',
  // Unlike the other trees, NetBox keeps tenant group names and slugs unique across the whole tree.
  ...nestedGroup('tenancy.tenantgroup', { verboseName: 'tenant group', count: 'tenant_count', unique: 'global' }),
  ordering: ['name'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'imageAttachments'],
});
