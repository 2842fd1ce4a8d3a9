import { ValidationError, type Row } from 'patchbay';

/** NetBox refuses /0 networks and addresses (`Cannot create prefix with /0 mask.`). */
export function refuseZeroMask(row: Row, column: string, noun: string): void {
  if (String(row[column]).endsWith('/0')) throw ValidationError.of(column, `Cannot create ${noun} with /0 mask.`);
}
