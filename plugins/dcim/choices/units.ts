import { defineChoices } from 'patchbay';

// NetBox 4.4's dcim choice sets: units shared by several models (device, module and rack types, racks).

export const WeightUnit = defineChoices([
  ['kg', 'Kilograms'],
  ['g', 'Grams'],
  ['lb', 'Pounds'],
  ['oz', 'Ounces'],
], { name: 'WeightUnitEnum', prefix: '' });
