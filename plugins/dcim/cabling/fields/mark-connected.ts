import { BooleanField, type CheckEntry, type ErrorMap } from 'patchbay';

/** `mark_connected`: connected without a cable in Patchbay, which a cabled object cannot claim. */
export class MarkConnectedField extends BooleanField {
  constructor() {
    super({ default: false });
  }

  override async check(entries: CheckEntry[]): Promise<(ErrorMap | undefined)[]> {
    return entries.map((e) => (e.value === true && e.row.cable_id ? { mark_connected: ['Cannot mark as connected with a cable attached.'] } : undefined));
  }
}
