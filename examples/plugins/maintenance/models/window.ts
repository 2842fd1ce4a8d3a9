import { HttpError, ValidationError, defineChoices, defineModel, f, type Row } from 'patchbay';
import { VersionField } from '../fields/version.js';
import { MaintenanceTask } from './task.js';

export const WindowStatus = defineChoices([
  ['scheduled', 'Scheduled'],
  ['in-progress', 'In progress'],
  ['completed', 'Completed'],
  ['cancelled', 'Cancelled'],
]);

/** The checklist every new window starts with. */
export const CHECKLIST = ['Announce', 'Execute', 'Verify'];

const minutesBetween = (row: Row) =>
  row.starts && row.ends ? Math.round((Date.parse(String(row.ends)) - Date.parse(String(row.starts))) / 60_000) : null;

/** A planned maintenance window, optionally for one tenant. */
export const MaintenanceWindow = defineModel('maintenance.window', {
  path: 'windows',
  verboseName: 'maintenance window',
  fields: {
    // "Window 2" before "Window 10".
    name: f.string({ max: 100, unique: true, natural: true }),
    status: f.choice(WindowStatus, { default: 'scheduled' }),
    starts: f.datetime(),
    ends: f.datetime({ nullable: true }),
    tenant: f.fk('tenancy.tenant', { nullable: true, countAs: 'maintenance_window_count' }),
    impact: f.integer({ min: 0, max: 5, default: 1, helpText: '0 (none) to 5 (outage)' }),
    notify: f.boolean({ default: true }),
    description: f.string({ max: 200, blank: true }),
    /** The software version the window upgrades to: a field kind of this plugin's own. */
    target_version: new VersionField({ nullable: true, helpText: 'Software version after the window, MAJOR.MINOR.PATCH' }),
    /** Derived from starts and ends whenever either is written (see `beforeSave`), so lists can filter and order by it. */
    duration_minutes: f.integer({ nullable: true, readOnly: true }),
    /** When the window was announced to its contacts (set by the `announce` job). */
    announced: f.datetime({ nullable: true, readOnly: true }),
  },
  brief: ['name', 'status', 'starts', 'description'],
  ordering: ['starts', 'name'],
  search: ['name', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts', 'imageAttachments'],
  validate: (row) => {
    if (row.ends && row.starts && Date.parse(row.ends as string) <= Date.parse(row.starts as string)) {
      throw new ValidationError({ ends: ['The window must end after it starts.'] });
    }
  },
  hooks: {
    beforeSave(item) {
      item.columns.duration_minutes = minutesBetween(item.row);
    },
    // New windows get the checklist: one statement for the tasks of every window of the write, each task
    // change-logged and evented. `internal`: the user's right to create the window covers its tasks.
    async afterSave(items, session) {
      const tasks = items.filter((i) => i.action === 'create').flatMap((i) => CHECKLIST.map((name) => ({ window: i.row.id, name })));
      if (tasks.length) await session.create(MaintenanceTask, tasks, { internal: true });
    },
    beforeDelete(rows) {
      const running = rows.find((r) => r.status === 'in-progress');
      if (running) throw new HttpError(409, { detail: `Maintenance window "${running.name}" is in progress and cannot be deleted.` });
    },
  },
});
