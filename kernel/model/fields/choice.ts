import { textFilter, type QueryFilter } from '../../filters/builders.js';
import { FilterError, ParamError } from '../../filters/errors.js';
import type { ValueSchema } from '../description.js';
import type { CommonOptions } from '../field.js';
import type { FieldRenderer } from '../../base/types.js';
import { ScalarField } from './scalar.js';

/** An ordered set of `[value, label]` pairs, as NetBox's ChoiceSet classes; values are all strings or all integers. */
export class ChoiceSet<V extends string | number = string | number> {
  private readonly labels: Map<string, string>;
  private readonly values: Map<string, V>;
  /** Integer values (rack widths, console speeds): stored in an integer column and read as numbers. */
  readonly numeric: boolean;

  constructor(
    readonly choices: ReadonlyArray<readonly [V, string]>,
    /** The GraphQL enum of the set, where NetBox names it otherwise than its first field would (`PortTypeEnum`). */
    readonly graphql?: EnumNaming,
  ) {
    this.labels = new Map(choices.map(([v, l]) => [String(v), l]));
    this.values = new Map(choices.map(([v]) => [String(v), v]));
    this.numeric = choices.length > 0 && choices.every(([v]) => typeof v === 'number');
  }

  has(value: unknown): boolean {
    return this.labels.has(String(value));
  }

  /** The member a written or queried value names (`19` or `"19"` for an integer set), if any. */
  member(value: unknown): V | undefined {
    return typeof value === 'string' || typeof value === 'number' ? this.values.get(String(value)) : undefined;
  }

  label(value: string | number): string {
    return this.labels.get(String(value)) ?? String(value);
  }
}

/** A GraphQL enum's name and the prefix of its members (`type` makes `TYPE_1000BASE_T`; '' none). */
export interface EnumNaming {
  name?: string;
  prefix?: string;
}

export function defineChoices<V extends string | number>(choices: ReadonlyArray<readonly [V, string]>, graphql?: EnumNaming): ChoiceSet<V> {
  return new ChoiceSet(choices, graphql);
}

export interface ChoiceOptions extends CommonOptions {
  max?: number;
}

/** Stored as the value; read as `{value, label}` (null when blank); written as the bare value. */
export class ChoiceField extends ScalarField<ChoiceOptions> {
  constructor(readonly set: ChoiceSet, options: ChoiceOptions) {
    super(options);
  }

  protected sqlType(): string {
    return this.set.numeric ? 'integer' : `varchar(${this.options.max ?? 50})`;
  }

  override prepare(): FieldRenderer {
    const { name, set } = this;
    return (row, out) => {
      const value = row[name];
      out[name] = (typeof value === 'string' && value !== '') || typeof value === 'number' ? { value, label: set.label(value) } : null;
    };
  }

  override parseValue(value: unknown): unknown {
    // NetBox stores "" for a null written to a blank-allowed, non-nullable choice.
    if (value === null && !this.nullable && this.options.blank) return '';
    return super.parseValue(value);
  }

  protected override acceptsBlankString(): boolean {
    return !this.set.numeric;
  }

  protected coerce(value: unknown): string | number {
    if (typeof value === 'object' && value !== null) {
      throw 'Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.';
    }
    const member = this.set.member(value);
    if (member === undefined) throw `${String(value)} is not a valid choice.`;
    return member;
  }

  protected schema(): ValueSchema {
    const schema: ValueSchema = { type: this.set.numeric ? 'integer' : 'string', choices: this.set.choices.map(([value, label]) => ({ value, label })), labelled: true };
    if (this.set.graphql) schema.enum = this.set.graphql;
    return schema;
  }

  /** Values compared with the field must be members (an integer set's column takes no text). */
  override filterValue(value: unknown, lookup: string): unknown {
    if (!this.set.numeric || lookup !== 'exact') return value;
    const member = this.set.member(value);
    if (member === undefined) throw new FilterError(`${JSON.stringify(value)} is not a valid choice.`, 'value');
    return member;
  }

  override filters(): Record<string, QueryFilter> {
    const check = (v: string) => {
      if (!this.set.has(v)) throw new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);
    };
    return { [this.name]: textFilter([this.name], check, (v) => this.set.member(v)) };
  }
}
