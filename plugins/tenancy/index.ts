import { definePlugin } from 'patchbay';
import { contactFilters, tenantGroupFilters } from './filters.js';
import { ContactAssignment } from './models/contact-assignment.js';
import { ContactGroup } from './models/contact-group.js';
import { ContactRole } from './models/contact-role.js';
import { Contact } from './models/contact.js';
import { TenantGroup } from './models/tenant-group.js';
import { Tenant } from './models/tenant.js';

/** Tenants and contacts. */
export default definePlugin({
  name: 'tenancy',
  label: 'Tenancy',
  version: '0.1.0',
  kernel: '^0.1.0',
  basePath: '/api/tenancy/',
  models: [TenantGroup, Tenant, ContactGroup, ContactRole, Contact, ContactAssignment],
  migrations: new URL('./migrations/', import.meta.url),
  setup(ctx) {
    ctx.filters.extend(tenantGroupFilters(ctx.registry));
    ctx.filters.extend(contactFilters);
  },
});
