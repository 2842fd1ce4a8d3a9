import type { Knex } from '@mikro-orm/knex';
import type { QueryFilter } from '../../filters/builders.js';
import { ParamError } from '../../filters/errors.js';
import { EQUALITY_LOOKUPS, type Lookups } from '../../filters/lookups.js';
import { or, cmp } from '../../filters/tree.js';
import type { WriteContext } from '../../write/context.js';
import type { ValueSchema } from '../description.js';
import { Field, type Column, type CommonOptions, type WriteValues } from '../field.js';
import type { ModelRegistry } from '../registry.js';
import { ValidationError, type FieldRenderer, type Json } from '../../base/types.js';

export interface ListOptions extends CommonOptions {
  /** PostgreSQL array type, e.g. `varchar(30)[]`, `inet[]`. */
  sqlType: string;
  /**
   * Normalises one item, or throws its error message: a written item as JSON gave it, or a filter's value (text;
   * a whole number's text is given as the number when `itemType` is `integer`).
   */
  item: (value: unknown, registry: ModelRegistry) => string | number;
  /** What the items are (for descriptions). Default `string`. */
  itemType?: 'string' | 'integer';
  /** The query filter's name, when not the field's (`unit` for a rack reservation's `units`). */
  filter?: string;
  /** At least one item is needed. */
  nonEmpty?: boolean;
}

/** A list of strings or integers in a PostgreSQL array column (actions, object types, allowed IPs, rack units). */
export class ListField extends Field<ListOptions> {
  columns(): Column[] {
    return [{ name: this.name, type: this.options.sqlType, nullable: this.nullable }];
  }

  prepare(): FieldRenderer {
    return (row, out) => {
      const value = row[this.name];
      out[this.name] = Array.isArray(value) ? (value as Json[]) : this.nullable ? null : [];
    };
  }

  protected schema(): ValueSchema {
    return { type: 'array', items: { type: this.options.itemType ?? 'string' } };
  }

  parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): void {
    const value = body[this.name];
    if (value === null && this.nullable) {
      out.columns[this.name] = out.values[this.name] = null;
      return;
    }
    if (!Array.isArray(value)) throw ValidationError.of(this.name, `Expected a list of items but got type "${typeof value === 'string' ? 'str' : typeof value}".`);
    if (this.options.nonEmpty && value.length === 0) throw ValidationError.of(this.name, 'This list may not be empty.');
    const items: (string | number)[] = [];
    for (const item of value) {
      try {
        items.push(this.options.item(item, ctx.registry));
      } catch (err) {
        if (typeof err === 'string') throw ValidationError.of(this.name, err);
        throw err;
      }
    }
    out.columns[this.name] = out.values[this.name] = [...new Set(items)];
  }

  /** `has`: the list holds the value. */
  override lookups(): Lookups {
    return {
      isnull: EQUALITY_LOOKUPS.isnull,
      has: (qb: Knex.QueryBuilder, column: string, value: unknown) => {
        qb.whereRaw('? = any(??)', [value as Knex.Value, column]);
      },
    };
  }

  /** `?<name>=a&<name>=b`: lists holding any of the values, each checked as an item would be. */
  override filters(): Record<string, QueryFilter> {
    return {
      [this.options.filter ?? this.name]: {
        suffixes: [],
        build: (_s, values, ctx) => {
          const items = values.map((v) => {
            try {
              return this.options.item(this.options.itemType === 'integer' && /^-?\d+$/.test(v) ? Number(v) : v, ctx.registry);
            } catch (err) {
              if (typeof err === 'string') throw new ParamError(err);
              throw err;
            }
          });
          return or(items.map((v) => cmp([this.name], 'has', v)));
        },
      },
    };
  }
}
