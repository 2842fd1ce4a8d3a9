import {
  EQUALITY_LOOKUPS, FilterError, ParamError, ScalarField, TEXT_LOOKUPS, textFilter,
  type Lookups, type QueryFilter, type ValueSchema,
} from 'patchbay';

/** `50:00:00:00:00:00:00:01`, `5000000000000001`, `50-00-…`: the stored upper-case colon form, or undefined. */
function parseWwn(value: unknown): string | undefined {
  const hex = typeof value === 'string' ? value.trim().replace(/[:.-]/g, '') : '';
  return /^[0-9a-fA-F]{16}$/.test(hex) ? hex.toUpperCase().match(/../g)!.join(':') : undefined;
}

/** A World Wide Name: eight bytes, read as upper-case colon-separated hex (`50:00:00:00:00:00:00:01`). */
export class WwnField extends ScalarField {
  protected sqlType(): string {
    return 'varchar(23)';
  }

  protected coerce(value: unknown): string {
    const wwn = parseWwn(value);
    if (!wwn) throw `Invalid WWN format: ${String(value)}`;
    return wwn;
  }

  protected schema(): ValueSchema {
    return { type: 'string', format: 'wwn' };
  }

  override lookups(): Lookups {
    return { ...EQUALITY_LOOKUPS, ...TEXT_LOOKUPS };
  }

  override filterValue(value: unknown, lookup: string): unknown {
    if (lookup !== 'exact') return value;
    const wwn = parseWwn(value);
    if (!wwn) throw new FilterError(`Expected a WWN, got ${JSON.stringify(value)}.`, 'value');
    return wwn;
  }

  /** `?wwn=` in any common notation (NetBox's WWN filter); the text lookups match the stored form. */
  override filters(): Record<string, QueryFilter> {
    const check = (v: string) => {
      if (!parseWwn(v)) throw new ParamError(`Invalid WWN format: ${v}`);
    };
    return { [this.name]: textFilter([this.name], check, (v) => parseWwn(v)) };
  }
}
