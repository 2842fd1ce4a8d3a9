import { defineModel, f } from 'patchbay';

/** One step of a window's checklist; every new window gets the standard checklist (see the window's hooks). */
export const MaintenanceTask = defineModel('maintenance.task', {
  path: 'tasks',
  verboseName: 'maintenance task',
  fields: {
    window: f.fk('maintenance.window', { onDelete: 'cascade', countAs: 'task_count', related: 'tasks' }),
    name: f.string({ max: 100, natural: true }),
    done: f.boolean({ default: false }),
  },
  unique: [{ fields: ['window', 'name'] }],
  brief: ['name', 'done'],
  ordering: ['window', 'name'],
  search: ['name'],
  parent: 'window',
  features: ['changelog'],
});
