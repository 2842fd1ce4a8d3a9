import { defineModel, f } from 'patchbay';

export const Contact = defineModel('tenancy.contact', {
  path: 'contacts',
  fields: {
    groups: f.m2m('tenancy.contactgroup', { filterName: 'group', countAs: 'contact_count', related: 'contacts' }),
    name: f.string({ max: 100 }),
    title: f.string({ max: 100, blank: true }),
    phone: f.string({ max: 50, blank: true }),
    email: f.email({ blank: true }),
    address: f.string({ max: 200, blank: true }),
    link: f.url({ blank: true }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'title', 'phone', 'email', 'address', 'link', 'description', 'comments'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'imageAttachments'],
});
