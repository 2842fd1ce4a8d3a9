import { defineChoices } from 'patchbay';

// NetBox 4.4's choice sets of the virtualization app.

export const ClusterStatus = defineChoices([
  ['planned', 'Planned'],
  ['staging', 'Staging'],
  ['active', 'Active'],
  ['decommissioning', 'Decommissioning'],
  ['offline', 'Offline'],
]);

export const VirtualMachineStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['decommissioning', 'Decommissioning'],
  ['paused', 'Paused'],
]);
