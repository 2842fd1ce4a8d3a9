import { defineChoices } from 'patchbay';

// NetBox 4.4's dcim choice sets: module types and modules.

export const ModuleStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['decommissioning', 'Decommissioning'],
]);

export const ModuleAirflow = defineChoices([
  ['front-to-rear', 'Front to rear'],
  ['rear-to-front', 'Rear to front'],
  ['left-to-right', 'Left to right'],
  ['right-to-left', 'Right to left'],
  ['side-to-rear', 'Side to rear'],
  ['passive', 'Passive'],
], { name: 'ModuleAirflowEnum', prefix: '' });
