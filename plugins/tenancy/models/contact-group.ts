import { defineModel, existingIds, f, not, parseWholeNumber, type FilterNode } from '../../../kernel/index.js';

export const ContactGroup = defineModel('tenancy.contactgroup', {
  path: 'contact-groups',
  verboseName: 'contact group',
  fields: {
    name: f.string({ max: 100 }),
    slug: f.slug({ max: 100 }),
    parent: f.parent('tenancy.contactgroup', { nested: ['id', 'url', 'display_url', 'display', 'name', 'slug', 'contact_count', '_depth'], related: 'children' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['parent', 'name'], message: 'A contact group with this name already exists within the parent group.' }],
  brief: ['name', 'slug', 'description', 'contact_count', '_depth'],
  ordering: ['name'],
  search: ['name', 'slug', 'description', 'comments'],
  filters: {
    // The groups a contact is in (the other side of the contact's `groups`).
    contact_id: {
      suffixes: ['n'],
      build: async (suffix, values, ctx) => {
        const contacts = await existingIds(ctx.db, 'tenancy_contact', 'id', values.map(parseWholeNumber));
        const node: FilterNode = {
          op: 'sql',
          condition: (qb, alias, _m, db) => void qb.whereIn(`${alias}.id`, db('tenancy_contact_groups').select('contactgroup_id').whereIn('contact_id', contacts)),
        };
        return suffix === 'n' ? not(node) : node;
      },
    },
  },
  features: ['tags', 'customFields', 'changelog', 'journal', 'imageAttachments'],
});
