import { ParamError, ReadOnlyField, cmp, or, type FieldRenderer, type QueryFilter, type Row, type ValueSchema } from 'patchbay';

const LABELS = { 4: 'IPv4', 6: 'IPv6' } as const;

/**
 * `family` of a network or address column, read as NetBox's choice (`{value: 4, label: "IPv4"}`) and filtered
 * with `?family=4|6` through the column's `family` lookup; nothing stored.
 */
export class FamilyField extends ReadOnlyField {
  constructor(private readonly column: string) {
    super();
  }

  override reads(): string[] {
    return [this.column];
  }

  protected schema(): ValueSchema {
    return { type: 'integer', choices: [{ value: 4, label: 'IPv4' }, { value: 6, label: 'IPv6' }], labelled: true, enum: { name: 'IPAddressFamilyEnum', prefix: 'family' } };
  }

  prepare(): FieldRenderer {
    const { column, name } = this;
    return (row: Row, out) => {
      const value = row[column] as string | null;
      const family = value === null || value === undefined ? null : String(value).includes(':') ? 6 : 4;
      out[name] = family === null ? null : { value: family, label: LABELS[family] };
    };
  }

  override filters(): Record<string, QueryFilter> {
    const path = [this.column];
    return {
      family: {
        suffixes: [],
        build: (_s, values) => {
          const families = values.map((v) => {
            if (v !== '4' && v !== '6') throw new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);
            return Number(v);
          });
          return or(families.map((family) => cmp(path, 'family', family)));
        },
      },
    };
  }
}
