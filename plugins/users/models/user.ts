import { defineModel, f, ValidationError } from 'patchbay';
import { PasswordField } from '../fields.js';

export const User = defineModel('users.user', {
  path: 'users',
  verboseName: 'user',
  fields: {
    username: f.string({ max: 150, unique: true, helpText: 'Letters, digits and @/./+/-/_ only.' }),
    password: new PasswordField({}),
    first_name: f.string({ max: 150, blank: true }),
    last_name: f.string({ max: 150, blank: true }),
    email: f.email({ blank: true }),
    is_staff: f.boolean({ default: false }),
    is_active: f.boolean({ default: true }),
    is_superuser: f.boolean({ default: false }),
    date_joined: f.datetime({ readOnly: true, nullable: true, autoNowAdd: true }),
    last_login: f.datetime({ readOnly: true, nullable: true }),
    groups: f.m2m('users.group', { countAs: 'user_count', filterName: 'group' }),
    permissions: f.m2m('users.objectpermission', { reverseOf: 'users', filterName: 'permission' }),
  },
  brief: ['username'],
  features: ['changelog'],
  ordering: ['username'],
  search: ['username', 'first_name', 'last_name', 'email'],
  display: (row) => {
    const full = `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim();
    return full ? `${row.username} (${full})` : String(row.username);
  },
  validate: (row) => {
    if (typeof row.username === 'string' && !/^[\w.@+-]+$/.test(row.username)) {
      throw new ValidationError({ username: ['Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.'] });
    }
  },
});
