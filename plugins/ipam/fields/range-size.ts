import { ReadOnlyField, type FieldRenderer, type Row, type ValueSchema } from 'patchbay';
import { toBigInt } from './network.js';

/** An IP range's `size`: how many addresses from start to end, computed as it is read. */
export class IpRangeSize extends ReadOnlyField {
  constructor() {
    super();
  }

  override reads(): string[] {
    return ['start_address', 'end_address'];
  }

  protected schema(): ValueSchema {
    return { type: 'integer' };
  }

  prepare(): FieldRenderer {
    const host = (value: unknown) => String(value).split('/')[0];
    return (row: Row, out) => {
      out[this.name] = Number(toBigInt(host(row.end_address)) - toBigInt(host(row.start_address)) + 1n);
    };
  }
}
