import { defineChoices } from 'patchbay';

// NetBox 4.4's dcim choice sets: power feeds.

export const PowerFeedStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['failed', 'Failed'],
]);

export const PowerFeedType = defineChoices([
  ['primary', 'Primary'],
  ['redundant', 'Redundant'],
]);

export const PowerFeedSupply = defineChoices([
  ['ac', 'AC'],
  ['dc', 'DC'],
]);

export const PowerFeedPhase = defineChoices([
  ['single-phase', 'Single phase'],
  ['three-phase', 'Three-phase'],
]);
