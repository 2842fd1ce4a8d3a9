import {
  EQUALITY_LOOKUPS, FilterError, ParamError, ScalarField, TEXT_LOOKUPS, textFilter,
  type Json, type Lookups, type QueryFilter, type ValueSchema,
} from 'patchbay';

/** `00-1a-2b-3c-4d-5e`, `001a.2b3c.4d5e` or `001A2B3C4D5E` → `00:1a:2b:3c:4d:5e`; undefined when not a MAC address. */
export function parseMac(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const hex = value.trim().toLowerCase();
  if (!/^([0-9a-f]{2}([:-]?)[0-9a-f]{2}(\2[0-9a-f]{2}){4}|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4})$/.test(hex)) return undefined;
  return hex.replace(/[^0-9a-f]/g, '').match(/../g)!.join(':');
}

/**
 * A MAC address, stored in PostgreSQL's `macaddr` and read in NetBox's upper-case colon form; equality takes any
 * common notation, the text lookups (`__ic`, `__isw`, …) match its colon form case-insensitively.
 */
export class MacAddressField extends ScalarField {
  protected sqlType(): string {
    return 'macaddr';
  }

  protected coerce(value: unknown): string {
    const mac = parseMac(value);
    if (!mac) throw `Invalid MAC address format: ${String(value)}`;
    return mac;
  }

  protected override toJson(value: unknown): Json {
    return String(value).toUpperCase();
  }

  protected schema(): ValueSchema {
    return { type: 'string', format: 'mac' };
  }

  override lookups(): Lookups {
    return { ...EQUALITY_LOOKUPS, ...TEXT_LOOKUPS };
  }

  override filterValue(value: unknown, lookup: string): unknown {
    if (lookup !== 'exact') return value;
    const mac = parseMac(value);
    if (!mac) throw new FilterError(`Expected a MAC address, got ${JSON.stringify(value)}.`, 'value');
    return mac;
  }

  override filters(): Record<string, QueryFilter> {
    const check = (v: string) => {
      if (!parseMac(v)) throw new ParamError(`Enter a valid MAC address: ${v}`);
    };
    return { [this.name]: textFilter([this.name], check, (v) => parseMac(v)) };
  }
}
