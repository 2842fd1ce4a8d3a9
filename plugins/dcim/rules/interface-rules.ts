import { ValidationError, type Row } from 'patchbay';
import { VIRTUAL_INTERFACE_TYPES, WIRELESS_INTERFACE_TYPES } from '../choices/index.js';

/** The rules interfaces and interface templates share (NetBox's InterfaceValidationMixin). */
export function checkInterface(row: Row): void {
  if (row.id !== undefined && row.bridge_id === row.id) throw ValidationError.of('bridge', 'An interface cannot be bridged to itself.');
  const virtual = VIRTUAL_INTERFACE_TYPES.has(row.type as string);
  if (row.poe_mode && virtual) throw ValidationError.of('poe_mode', 'Virtual interfaces cannot have a PoE mode.');
  if (row.poe_type && virtual) throw ValidationError.of('poe_type', 'Virtual interfaces cannot have a PoE type.');
  if (row.poe_type && !row.poe_mode) throw ValidationError.of('poe_type', 'Must specify PoE mode when designating a PoE type.');
  if (row.rf_role && !WIRELESS_INTERFACE_TYPES.has(row.type as string)) throw ValidationError.of('rf_role', 'Wireless role may be set only on wireless interfaces.');
}
