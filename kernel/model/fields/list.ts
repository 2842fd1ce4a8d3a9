import { Field, type Column, type CommonOptions, type FieldMetadata, type WriteContext, type WriteValues, type FilterKind } from '../field.js';
import type { ModelRegistry } from '../registry.js';
import { ValidationError, type FieldRenderer, type Json } from '../types.js';

export interface ListOptions extends CommonOptions {
  /** PostgreSQL array type, e.g. `varchar(30)[]`, `inet[]`. */
  sqlType: string;
  /** Normalises one item, or throws its error message. */
  item: (value: unknown, registry: ModelRegistry) => string;
  /** At least one item is needed. */
  nonEmpty?: boolean;
}

/** A list of strings in a PostgreSQL array column (actions, object types, allowed IPs). */
export class ListField extends Field<ListOptions> {
  override filterKind(): FilterKind | undefined {
    return 'list';
  }

  columns(): Column[] {
    return [{ name: this.name, type: this.options.sqlType, nullable: this.nullable }];
  }

  prepare(): FieldRenderer {
    return (row, out) => {
      const value = row[this.name];
      out[this.name] = Array.isArray(value) ? (value as Json[]) : this.nullable ? null : [];
    };
  }

  parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): void {
    const value = body[this.name];
    if (value === null && this.nullable) {
      out.columns[this.name] = null;
      return;
    }
    if (!Array.isArray(value)) throw ValidationError.of(this.name, `Expected a list of items but got type "${typeof value === 'string' ? 'str' : typeof value}".`);
    if (this.options.nonEmpty && value.length === 0) throw ValidationError.of(this.name, 'This list may not be empty.');
    const items: string[] = [];
    for (const item of value) {
      try {
        items.push(this.options.item(item, ctx.registry));
      } catch (err) {
        if (typeof err === 'string') throw ValidationError.of(this.name, err);
        throw err;
      }
    }
    out.columns[this.name] = [...new Set(items)];
  }

  protected metadataType(): string {
    return 'list';
  }

  override metadata(registry: ModelRegistry): FieldMetadata {
    return { ...super.metadata(registry), child: { type: 'string', required: true, read_only: false } };
  }
}
