import { defineModel, f } from 'patchbay';
import { ChangeAction } from '../choices.js';

/** One create, update or delete of one object, written in the same transaction as the change. */
export const ObjectChange = defineModel('extras.objectchange', {
  path: 'object-changes',
  verboseName: 'object change',
  readOnly: true,
  fields: {
    time: f.datetime({ autoNowAdd: true, readOnly: true }),
    user: f.fk('users.user', { nullable: true, onDelete: 'set null' }),
    user_name: f.string({ max: 150, blank: true }),
    request_id: f.string({ max: 36 }),
    action: f.choice(ChangeAction),
    changed_object: f.generic({ onDelete: 'keep', related: 'changelog' }),
    related_object: f.generic({ nullable: true, onDelete: 'keep' }),
    object_repr: f.string({ max: 200 }),
    message: f.string({ max: 200, blank: true }),
    prechange_data: f.json({ nullable: true }),
    postchange_data: f.json({ nullable: true }),
  },
  brief: ['time', 'action', 'object_repr'],
  ordering: ['-time', '-id'],
  search: ['user_name', 'object_repr', 'message'],
  display: (row) => `${row.object_repr} ${ChangeAction.label(row.action as string).toLowerCase()} by ${row.user_name}`,
});
