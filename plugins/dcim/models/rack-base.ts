import { ValidationError, f, type Row, type SaveItem } from 'patchbay';
import { RackDimensionUnit, RackFormFactor, RackWidth, WeightUnit } from '../choices/index.js';

/** The physical attributes racks and rack types share (NetBox's RackBase), as fresh fields for each model. */
export function rackDimensions() {
  return {
    form_factor: f.choice(RackFormFactor, { nullable: true }),
    width: f.choice(RackWidth, { default: 19 }),
    u_height: f.integer({ min: 1, max: 100, default: 42 }),
    starting_unit: f.integer({ min: 1, max: 32767, default: 1 }),
    desc_units: f.boolean({ default: false }),
    outer_width: f.integer({ min: 0, max: 32767, nullable: true }),
    outer_height: f.integer({ min: 0, max: 32767, nullable: true }),
    outer_depth: f.integer({ min: 0, max: 32767, nullable: true }),
    outer_unit: f.choice(RackDimensionUnit, { nullable: true }),
    weight: f.decimal({ digits: 8, places: 2, min: 0, nullable: true }),
    max_weight: f.integer({ min: 0, max: 2147483647, nullable: true }),
    weight_unit: f.choice(WeightUnit, { nullable: true }),
    mounting_depth: f.integer({ min: 0, max: 32767, nullable: true }),
  };
}

/** The attributes a rack copies from its rack type. */
export const RACK_TYPE_ATTRIBUTES = Object.keys(rackDimensions());

/** Units must accompany outer dimensions and a maximum weight; without outer dimensions the unit is cleared. */
export function checkDimensions(row: Row): void {
  if ([row.outer_width, row.outer_height, row.outer_depth].some(Boolean) && !row.outer_unit) throw ValidationError.of('__all__', 'Must specify a unit when setting an outer dimension');
  if (row.max_weight && !row.weight_unit) throw ValidationError.of('__all__', 'Must specify a unit when setting a maximum weight');
  checkWeight(row);
}

/** Without outer dimensions a rack keeps no outer unit (NetBox clears it on save). */
export function clearOuterUnit(item: SaveItem): void {
  const { row } = item;
  if (![row.outer_width, row.outer_height, row.outer_depth].some(Boolean)) item.columns.outer_unit = null;
}

/** A weight needs its unit (NetBox's WeightMixin). */
export function checkWeight(row: Row): void {
  if (row.weight !== null && row.weight !== undefined && !row.weight_unit) throw ValidationError.of('__all__', 'Must specify a unit when setting a weight');
}
