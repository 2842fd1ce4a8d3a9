import { defineModel, f } from '../../../kernel/index.js';

export const ContactGroup = defineModel('tenancy.contactgroup', {
  path: 'contact-groups',
  verboseName: 'contact group',
  fields: {
    name: f.string({ max: 100 }),
    slug: f.slug({ max: 100 }),
    parent: f.parent('tenancy.contactgroup', { nested: ['id', 'url', 'display_url', 'display', 'name', 'slug', 'contact_count', '_depth'] }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['parent', 'name'], message: 'A contact group with this name already exists within the parent group.' }],
  brief: ['name', 'slug', 'description', 'contact_count', '_depth'],
  ordering: ['name'],
  search: ['name', 'slug', 'description', 'comments'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'imageAttachments'],
});
