/** Facts about JSON values and PostgreSQL integers that parsing shares. */

/** PostgreSQL's largest `integer` (ids are serial integers). */
export const INT_MAX = 2147483647;

/** A whole number that fits PostgreSQL's integer, from JSON or text; otherwise undefined. */
export function wholeNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && Math.abs(n) <= INT_MAX ? n : undefined;
}

/** An id that can exist: a whole number from 1 to INT_MAX. */
export function isStoredId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= INT_MAX;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Python's name of a JSON value's type, as DRF's messages name it. */
export function pythonType(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null || value === undefined) return 'NoneType';
  return { string: 'str', number: Number.isInteger(value) ? 'int' : 'float', boolean: 'bool' }[typeof value as string] ?? 'dict';
}
