import { textFilter, type QueryFilter } from '../../filters/builders.js';
import { ParamError } from '../../filters/errors.js';
import type { ValueSchema } from '../description.js';
import type { CommonOptions } from '../field.js';
import type { FieldRenderer } from '../types.js';
import { ScalarField } from './scalar.js';

/** An ordered set of `[value, label]` pairs, as NetBox's ChoiceSet classes. */
export class ChoiceSet<V extends string = string> {
  private readonly labels: Map<string, string>;

  constructor(readonly choices: ReadonlyArray<readonly [V, string]>) {
    this.labels = new Map(choices.map(([v, l]) => [v, l]));
  }

  has(value: string): value is V {
    return this.labels.has(value);
  }

  label(value: string): string {
    return this.labels.get(value) ?? value;
  }
}

export function defineChoices<V extends string>(choices: ReadonlyArray<readonly [V, string]>): ChoiceSet<V> {
  return new ChoiceSet(choices);
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
    return `varchar(${this.options.max ?? 50})`;
  }

  override prepare(): FieldRenderer {
    const { name, set } = this;
    return (row, out) => {
      const value = row[name];
      out[name] = typeof value === 'string' && value !== '' ? { value, label: set.label(value) } : null;
    };
  }

  override parseValue(value: unknown): unknown {
    // NetBox stores "" for a null written to a blank-allowed, non-nullable choice.
    if (value === null && !this.nullable && this.options.blank) return '';
    return super.parseValue(value);
  }

  protected override acceptsBlankString(): boolean {
    return true;
  }

  protected coerce(value: unknown): string {
    if (typeof value === 'object' && value !== null) {
      throw 'Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.';
    }
    const text = String(value);
    if (!this.set.has(text)) throw `${text} is not a valid choice.`;
    return text;
  }

  protected schema(): ValueSchema {
    return { type: 'string', choices: this.set.choices.map(([value, label]) => ({ value, label })) };
  }

  override filters(): Record<string, QueryFilter> {
    return {
      [this.name]: textFilter([this.name], (v) => {
        if (!this.set.has(v)) throw new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);
      }),
    };
  }
}
