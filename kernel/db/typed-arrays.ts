/**
 * The element type an array of one column's values is sent as (`?::text[]`, one parameter for any number of rows),
 * or undefined for columns whose values are arrays themselves. Lengths and precisions stay the column's: casting to
 * `varchar(100)` would cut longer text to size, where a lookup or an insert must see it whole.
 */
export function elementType(type: string): string | undefined {
  if (type.endsWith(']')) return undefined;
  if (type === 'serial') return 'integer';
  return type.replace(/^varchar\(\d+\)$/, 'text').replace(/^numeric\(\d+,\d+\)$/, 'numeric');
}
