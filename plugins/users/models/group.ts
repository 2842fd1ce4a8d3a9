import { defineModel, f } from 'patchbay';

export const Group = defineModel('users.group', {
  path: 'groups',
  verboseName: 'group',
  fields: {
    name: f.string({ max: 150, unique: true }),
    description: f.string({ max: 200, blank: true }),
    permissions: f.m2m('users.objectpermission', { reverseOf: 'groups', filterName: 'permission' }),
  },
  brief: ['name', 'description'],
  features: ['changelog'],
  ordering: ['name'],
  search: ['name', 'description'],
});
