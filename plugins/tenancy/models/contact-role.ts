import { defineModel, f } from 'patchbay';

export const ContactRole = defineModel('tenancy.contactrole', {
  path: 'contact-roles',
  verboseName: 'contact role',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'imageAttachments'],
});
