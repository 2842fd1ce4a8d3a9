import { defineModel, existingIds, nestedGroup, not, parseWholeNumber, type FilterNode } from 'patchbay';

export const ContactGroup = defineModel('tenancy.contactgroup', {
  path: 'contact-groups',
  // NetBox constrains contact group names among siblings only, and slugs not at all.
  ...nestedGroup('tenancy.contactgroup', { verboseName: 'contact group', count: 'contact_count', unique: 'siblingNames' }),
  ordering: ['name'],
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
