import { ScalarField, type ValueSchema } from '../../../kernel/index.js';

/** A World Wide Name: eight bytes, read as upper-case colon-separated hex (`50:00:00:00:00:00:00:01`). */
export class WwnField extends ScalarField {
  protected sqlType(): string {
    return 'varchar(23)';
  }

  protected coerce(value: unknown): string {
    const hex = typeof value === 'string' ? value.trim().replace(/[:.-]/g, '') : '';
    if (!/^[0-9a-fA-F]{16}$/.test(hex)) throw `Invalid WWN format: ${String(value)}`;
    return hex.toUpperCase().match(/../g)!.join(':');
  }

  protected schema(): ValueSchema {
    return { type: 'string', format: 'wwn' };
  }
}
