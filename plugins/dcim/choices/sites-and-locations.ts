import { defineChoices } from 'patchbay';

// NetBox 4.4's dcim choice sets: sites and locations.

// `reserved` is the contract's addition to NetBox's site statuses.
export const SiteStatus = defineChoices([
  ['planned', 'Planned'],
  ['staging', 'Staging'],
  ['active', 'Active'],
  ['decommissioning', 'Decommissioning'],
  ['retired', 'Retired'],
  ['reserved', 'Reserved'],
]);

export const LocationStatus = defineChoices([
  ['planned', 'Planned'],
  ['staging', 'Staging'],
  ['active', 'Active'],
  ['decommissioning', 'Decommissioning'],
  ['retired', 'Retired'],
]);
