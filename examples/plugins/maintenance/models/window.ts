import { ValidationError, defineChoices, defineModel, f } from 'patchbay';
import { VersionField } from '../fields/version.js';

export const WindowStatus = defineChoices([
  ['scheduled', 'Scheduled'],
  ['in-progress', 'In progress'],
  ['completed', 'Completed'],
  ['cancelled', 'Cancelled'],
]);

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
});
