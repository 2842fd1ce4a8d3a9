import { defineChoices } from 'patchbay';

// NetBox 4.4's dcim choice sets: inventory items.

export const InventoryItemStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['decommissioning', 'Decommissioning'],
]);
