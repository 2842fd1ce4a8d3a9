import { defineModel, f } from 'patchbay';
import { JournalKind } from '../choices.js';
import { CreatedByField } from '../fields/created-by.js';

export const JournalEntry = defineModel('extras.journalentry', {
  path: 'journal-entries',
  verboseName: 'journal entry',
  verboseNamePlural: 'journal entries',
  fields: {
    assigned_object: f.generic({ feature: 'journal', related: 'journal_entries' }),
    created_by: new CreatedByField(),
    kind: f.choice(JournalKind, { default: 'info' }),
    comments: f.text(),
  },
  brief: ['created'],
  ordering: ['-created', '-id'],
  search: ['comments'],
  parent: 'assigned_object',
  display: (row) => `${String(row.created ?? '').slice(0, 16).replace('T', ' ')} (${JournalKind.label(row.kind as string)})`,
  features: ['tags', 'customFields', 'changelog'],
});
