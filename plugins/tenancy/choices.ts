import { defineChoices } from 'patchbay';

export const ContactPriority = defineChoices([
  ['primary', 'Primary'],
  ['secondary', 'Secondary'],
  ['tertiary', 'Tertiary'],
  ['inactive', 'Inactive'],
], { name: 'ContactPriorityEnum', prefix: 'priority' });
