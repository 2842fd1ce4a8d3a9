import type { Row } from 'patchbay';

/** "Gi0/1 (uplink)", or the name alone: how NetBox displays components and their templates. */
export function labelled(row: Row): string {
  return row.label ? `${row.name} (${row.label})` : String(row.name);
}
