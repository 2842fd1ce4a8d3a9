import type { Json } from 'patchbay';

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Python's `json.dumps(value)` of a value as JSON parses it (no NaN or Infinity): `", "` and `": "` separators, and
 * every character outside printable ASCII escaped as `\uXXXX` (NetBox's default body). Indented, JSON.stringify
 * separates keys from values with `": "` and puts a line break after each comma and opening bracket and before each
 * closing one; a line break in a string is escaped, so every line break is one of those, which become Python's
 * separators.
 */
export function pythonJson(value: Json | undefined): string {
  if (value === undefined) return 'null';
  return JSON.stringify(value, null, 1).replace(/,\n */g, ', ').replace(/\n */g, '').replace(/[\u007f-\uffff]/g, escaped);
}
