import { defineChoices } from 'patchbay';

// NetBox 4.4's choice sets of the circuits app.

export const CircuitStatus = defineChoices([
  ['planned', 'Planned'],
  ['provisioning', 'Provisioning'],
  ['active', 'Active'],
  ['offline', 'Offline'],
  ['deprovisioning', 'Deprovisioning'],
  ['decommissioned', 'Decommissioned'],
], { name: 'CircuitStatusEnum', prefix: '' });

export const TermSide = defineChoices([
  ['A', 'A'],
  ['Z', 'Z'],
], { name: 'CircuitTerminationSideEnum', prefix: 'side' });

export const CircuitPriority = defineChoices([
  ['primary', 'Primary'],
  ['secondary', 'Secondary'],
  ['tertiary', 'Tertiary'],
  ['inactive', 'Inactive'],
], { name: 'CircuitPriorityEnum', prefix: 'priority' });

export const VirtualCircuitTerminationRole = defineChoices([
  ['peer', 'Peer'],
  ['hub', 'Hub'],
  ['spoke', 'Spoke'],
]);

export const DistanceUnit = defineChoices([
  ['km', 'Kilometers'],
  ['m', 'Meters'],
  ['mi', 'Miles'],
  ['ft', 'Feet'],
], { name: 'DistanceUnitEnum', prefix: '' });
