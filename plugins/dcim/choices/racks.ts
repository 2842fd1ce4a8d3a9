import { defineChoices } from 'patchbay';

// NetBox 4.4's dcim choice sets: racks, rack types and rack reservations.

export const RackFormFactor = defineChoices([
  ['2-post-frame', '2-post frame'],
  ['4-post-frame', '4-post frame'],
  ['4-post-cabinet', '4-post cabinet'],
  ['wall-frame', 'Wall-mounted frame'],
  ['wall-frame-vertical', 'Wall-mounted frame (vertical)'],
  ['wall-cabinet', 'Wall-mounted cabinet'],
  ['wall-cabinet-vertical', 'Wall-mounted cabinet (vertical)'],
], { name: 'RackFormFactorEnum', prefix: 'type' });

export const RackWidth = defineChoices([
  [10, '10 inches'],
  [19, '19 inches'],
  [21, '21 inches'],
  [23, '23 inches'],
]);

export const RackStatus = defineChoices([
  ['reserved', 'Reserved'],
  ['available', 'Available'],
  ['planned', 'Planned'],
  ['active', 'Active'],
  ['deprecated', 'Deprecated'],
]);

export const RackDimensionUnit = defineChoices([
  ['mm', 'Millimeters'],
  ['in', 'Inches'],
], { name: 'RackDimensionUnitEnum', prefix: 'unit' });

export const RackAirflow = defineChoices([
  ['front-to-rear', 'Front to rear'],
  ['rear-to-front', 'Rear to front'],
], { name: 'RackAirflowEnum', prefix: '' });

export const RackReservationStatus = defineChoices([
  ['pending', 'Pending'],
  ['active', 'Active'],
  ['stale', 'Stale'],
]);
