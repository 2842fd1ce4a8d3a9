import { Field, plainRenderer, type Column, type CommonOptions, type FieldMetadata, type WriteValues, type FilterKind } from '../field.js';
import type { ModelRegistry } from '../registry.js';
import { ValidationError, type FieldRenderer, type Json, type RenderContext, type Row } from '../types.js';
import { formatDate, formatDateTime, parseDate, parseDateTime } from './time.js';

/**
 * A field stored in one column of its own name. Subclasses convert a written value (`coerce`)
 * and a stored one (`toJson`); null, blank and required handling live here once.
 */
export abstract class ScalarField<O extends CommonOptions = CommonOptions> extends Field<O> {
  protected abstract sqlType(): string;

  /** Turns a written value into the stored one; throws a message (string) when it is invalid. */
  protected abstract coerce(value: unknown): unknown;

  protected toJson(value: unknown): Json {
    return value as Json;
  }

  /** Text that may be blank and not null defaults to '', in the database and on create. */
  private get blankDefault(): '' | undefined {
    return this.acceptsBlankString() && this.options.blank && !this.nullable ? '' : undefined;
  }

  columns(): Column[] {
    const col: Column = { name: this.name, type: this.sqlType(), nullable: this.nullable };
    const def = this.options.default ?? this.blankDefault;
    if (def !== undefined && def !== null && typeof def !== 'object') col.default = def;
    return [col];
  }

  override createDefault(): Json | undefined {
    return this.options.default ?? this.blankDefault;
  }

  prepare(_rows: Row[], _ctx: RenderContext): FieldRenderer {
    return plainRenderer(this.name, (row) => {
      const value = row[this.name];
      return value === null || value === undefined ? null : this.toJson(value);
    });
  }

  parse(body: Record<string, unknown>, _ctx: unknown, out: WriteValues): void {
    out.columns[this.name] = this.parseValue(body[this.name]);
  }

  parseValue(value: unknown): unknown {
    if (value === null) {
      if (this.nullable) return null;
      throw ValidationError.of(this.name, 'This field may not be null.');
    }
    if (value === '' && this.acceptsBlankString()) {
      if (this.options.blank) return '';
      throw ValidationError.of(this.name, 'This field may not be blank.');
    }
    try {
      return this.coerce(value);
    } catch (err) {
      if (typeof err === 'string') throw ValidationError.of(this.name, err);
      throw err;
    }
  }

  /** Text fields treat "" as blank; others reject it through `coerce`. */
  protected acceptsBlankString(): boolean {
    return false;
  }
}

export interface StringOptions extends CommonOptions {
  max?: number;
}

export class StringField<O extends StringOptions = StringOptions> extends ScalarField<O> {
  override filterKind(): FilterKind | undefined {
    return 'string';
  }

  protected sqlType(): string {
    return this.options.max ? `varchar(${this.options.max})` : 'text';
  }

  protected override acceptsBlankString(): boolean {
    return true;
  }

  protected coerce(value: unknown): string {
    if (typeof value === 'number') value = String(value);
    if (typeof value !== 'string') throw 'Not a valid string.';
    const text = value.trim();
    if (text === '') {
      if (this.options.blank) return '';
      throw 'This field may not be blank.';
    }
    if (this.options.max && text.length > this.options.max) {
      throw `Ensure this field has no more than ${this.options.max} characters.`;
    }
    this.check(text);
    return text;
  }

  /** Format rules of subclasses (slug, email, url). */
  protected check(text: string): void {
    void text;
  }

  protected metadataType(): string {
    return 'string';
  }

  override metadata(registry: ModelRegistry): FieldMetadata {
    const meta = super.metadata(registry);
    if (this.options.max) meta.max_length = this.options.max;
    return meta;
  }
}

export class SlugField extends StringField {
  protected override check(text: string): void {
    if (!/^[-a-zA-Z0-9_]+$/.test(text)) throw 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.';
  }

  protected override metadataType(): string {
    return 'slug';
  }
}

export class EmailField extends StringField {
  protected override check(text: string): void {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) throw 'Enter a valid email address.';
  }

  protected override metadataType(): string {
    return 'email';
  }
}

export class UrlField extends StringField {
  protected override check(text: string): void {
    let ok = false;
    try {
      const url = new URL(text);
      ok = /^(https?|ftps?):$/.test(url.protocol) && /^[a-z]+:\/\//i.test(text) && url.hostname !== '';
    } catch {
      ok = false;
    }
    if (!ok) throw 'Enter a valid URL.';
  }

  protected override metadataType(): string {
    return 'url';
  }
}

export interface IntegerOptions extends CommonOptions {
  min?: number;
  max?: number;
}

export class IntegerField extends ScalarField<IntegerOptions> {
  override filterKind(): FilterKind | undefined {
    return 'integer';
  }

  protected sqlType(): string {
    return 'integer';
  }

  protected coerce(value: unknown): number {
    const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n)) throw 'A valid integer is required.';
    if (this.options.min !== undefined && n < this.options.min) throw `Ensure this value is greater than or equal to ${this.options.min}.`;
    if (this.options.max !== undefined && n > this.options.max) throw `Ensure this value is less than or equal to ${this.options.max}.`;
    if (Math.abs(n) > 2147483647) throw 'Ensure this value is less than or equal to 2147483647.';
    return n;
  }

  protected metadataType(): string {
    return 'integer';
  }

  override metadata(registry: ModelRegistry): FieldMetadata {
    const meta = super.metadata(registry);
    if (this.options.min !== undefined) meta.min_value = this.options.min;
    if (this.options.max !== undefined) meta.max_value = this.options.max;
    return meta;
  }
}

export interface DecimalOptions extends CommonOptions {
  digits: number;
  places: number;
  min?: number;
  max?: number;
}

export class DecimalField extends ScalarField<DecimalOptions> {
  override filterKind(): FilterKind | undefined {
    return 'decimal';
  }

  protected sqlType(): string {
    return `numeric(${this.options.digits},${this.options.places})`;
  }

  protected override toJson(value: unknown): Json {
    return Number(value);
  }

  protected coerce(value: unknown): string {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw 'A valid number is required.';
    const { digits, places, min, max } = this.options;
    if (min !== undefined && n < min) throw `Ensure this value is greater than or equal to ${min}.`;
    if (max !== undefined && n > max) throw `Ensure this value is less than or equal to ${max}.`;
    const [whole, frac = ''] = Math.abs(n).toString().split('.');
    if (frac.length > places) throw `Ensure that there are no more than ${places} decimal places.`;
    if (whole.replace(/^0+/, '').length > digits - places) throw `Ensure that there are no more than ${digits - places} digits before the decimal point.`;
    return n.toFixed(places);
  }

  protected metadataType(): string {
    return 'decimal';
  }

  override metadata(registry: ModelRegistry): FieldMetadata {
    const meta = super.metadata(registry);
    if (this.options.min !== undefined) meta.min_value = this.options.min;
    if (this.options.max !== undefined) meta.max_value = this.options.max;
    meta.max_digits = this.options.digits;
    meta.decimal_places = this.options.places;
    return meta;
  }
}

export class BooleanField extends ScalarField {
  override filterKind(): FilterKind | undefined {
    return 'boolean';
  }

  protected sqlType(): string {
    return 'boolean';
  }

  protected coerce(value: unknown): boolean {
    if (typeof value === 'boolean') return value;
    if (value === 1 || value === 0) return value === 1;
    if (typeof value === 'string') {
      if (/^(true|1|yes|on)$/i.test(value)) return true;
      if (/^(false|0|no|off)$/i.test(value)) return false;
    }
    throw 'Must be a valid boolean.';
  }

  protected metadataType(): string {
    return 'boolean';
  }
}

/** How a temporal kind is stored, read, written and described. */
interface TemporalKind {
  sql: string;
  format: (value: string | Date) => string;
  parse: (text: string) => string | undefined;
  message: string;
  metadata: string;
}

const DATETIME: TemporalKind = {
  sql: 'timestamptz',
  format: formatDateTime,
  parse: parseDateTime,
  message: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  metadata: 'datetime',
};

const DATE: TemporalKind = {
  sql: 'date',
  format: formatDate,
  parse: parseDate,
  message: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  metadata: 'date',
};

export interface TemporalOptions extends CommonOptions {
  /** Filled with the current time when the object is created (Django's auto_now_add). */
  autoNowAdd?: boolean;
}

/** A date or a datetime: ISO 8601 text on the wire, in NetBox's formats. */
class TemporalField extends ScalarField<TemporalOptions> {
  constructor(private readonly kind: TemporalKind, options: TemporalOptions) {
    super(options);
  }

  override columns(): Column[] {
    const [col] = super.columns();
    return [this.options.autoNowAdd ? { ...col, defaultRaw: 'now()' } : col];
  }

  protected sqlType(): string {
    return this.kind.sql;
  }

  protected override toJson(value: unknown): Json {
    return this.kind.format(value as string | Date);
  }

  protected coerce(value: unknown): string {
    const parsed = typeof value === 'string' ? this.kind.parse(value) : undefined;
    if (!parsed) throw this.kind.message;
    return parsed;
  }

  protected metadataType(): string {
    return this.kind.metadata;
  }
}

export class DateTimeField extends TemporalField {
  override filterKind(): FilterKind | undefined {
    return 'datetime';
  }

  constructor(options: TemporalOptions) {
    super(DATETIME, options);
  }
}

export class DateField extends TemporalField {
  override filterKind(): FilterKind | undefined {
    return 'date';
  }

  constructor(options: TemporalOptions) {
    super(DATE, options);
  }
}

export interface JsonOptions extends CommonOptions {
  /** What a stored NULL reads as (NetBox renders empty snapshots as `{}`). */
  nullAs?: Json;
}

export class JsonField extends ScalarField<JsonOptions> {
  override prepare(rows: Row[], ctx: RenderContext): FieldRenderer {
    const render = super.prepare(rows, ctx);
    const fallback = this.options.nullAs;
    if (fallback === undefined) return render;
    return (row, out) => {
      render(row, out);
      if (out[this.name] === null) out[this.name] = fallback;
    };
  }

  protected sqlType(): string {
    return 'jsonb';
  }

  protected override toJson(value: unknown): Json {
    return value as Json;
  }

  protected coerce(value: unknown): string {
    return JSON.stringify(value);
  }

  protected metadataType(): string {
    return 'field';
  }
}

/** Read-only values filled by the kernel (`created`, `last_updated`). */
export class TimestampField extends DateTimeField {
  override get readOnly(): boolean {
    return true;
  }

  override columns(): Column[] {
    return [{ name: this.name, type: 'timestamptz', nullable: true }];
  }

  override parse(): void {}
}
