import { booleanFilter, orderedFilter, textFilter, type QueryFilter } from '../../filters/builders.js';
import { FilterError, ParamError } from '../../filters/errors.js';
import { SCALAR_LOOKUPS, type Lookups } from '../../filters/lookups.js';
import { parseBoolean, parseDateParam, parseDateTimeParam, parseNumber, parseWholeNumber } from '../../filters/values.js';
import type { ValueSchema } from '../description.js';
import { Field, type Column, type CommonOptions, type GeneratedColumn, type WriteValues } from '../field.js';
import { ValidationError, type FieldRenderer, type Json, type RenderContext, type Row } from '../../base/types.js';
import { INT_MAX, wholeNumber } from '../../base/values.js';
import { formatDate, formatDateTime, parseDate, parseDateTime } from '../../base/time.js';

/**
 * A field stored in one column of its own name. Subclasses convert a written value (`coerce`) and a stored
 * one (`toJson`); null, blank and required handling, the scalar lookups and plain ordering live here once.
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

  /** What the API shows, a choice as its bare value. */
  override plainValue(row: Row): Json {
    const value = row[this.name];
    return value === null || value === undefined ? null : this.toJson(value);
  }

  override trigramExpression(): string | undefined {
    return `("${this.name}"::text)`;
  }

  /**
   * The stored value as SQL whose JSON is what `toJson` makes of it (`column` is the quoted column); undefined by
   * default. Kinds whose stored value JSON writes as REST renders it say so.
   */
  protected storedSql(_column: string): string | undefined {
    return undefined;
  }

  override jsonSql(key: string, alias: string): string | undefined {
    if (key !== this.name || !rendersAsItsSql(this)) return undefined;
    return this.storedSql(`${alias}."${this.name}"`);
  }

  columns(): Column[] {
    const col: Column = { name: this.name, type: this.sqlType(), nullable: this.nullable };
    const def = this.fixedDefault ?? this.blankDefault;
    if (def !== undefined && def !== null && typeof def !== 'object') col.default = def;
    return [col];
  }

  override createDefault(): Json | undefined {
    return super.createDefault() ?? this.blankDefault;
  }

  prepare(_rows: Row[], _ctx: RenderContext): FieldRenderer {
    const name = this.name;
    return (row, out) => {
      const value = row[name];
      out[name] = value === null || value === undefined ? null : this.toJson(value);
    };
  }

  parse(body: Record<string, unknown>, _ctx: unknown, out: WriteValues): void {
    out.columns[this.name] = out.values[this.name] = this.parseValue(body[this.name]);
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

  override lookups(): Lookups {
    return SCALAR_LOOKUPS;
  }
}

/** The methods that say how a scalar's value renders. */
const RENDERING = ['toJson', 'prepare', 'plainValue'] as const;

/** The prototype in `field`'s chain that defines `method`. */
function definer(field: object, method: string): object | null {
  let proto = Object.getPrototypeOf(field) as object | null;
  while (proto && !Object.hasOwn(proto, method)) proto = Object.getPrototypeOf(proto) as object | null;
  return proto;
}

/**
 * Whether the class that said how `field`'s value is SQL also knows how it renders: a subclass rendering its value
 * its own way (a masked key, a formatted MAC) without saying so in SQL is answered by its renderer alone.
 */
function rendersAsItsSql(field: ScalarField): boolean {
  const sql = definer(field, 'storedSql');
  return RENDERING.every((method) => {
    const rendering = definer(field, method);
    return rendering === sql || (rendering !== null && sql !== null && Object.prototype.isPrototypeOf.call(rendering, sql));
  });
}

export interface StringOptions extends CommonOptions {
  max?: number;
  /** Order as people read numbers in names (`Ethernet1/2` before `Ethernet1/10`), served by an index. */
  natural?: boolean;
}

/** The SQL function (a kernel migration) that pads the numbers in a text to sort naturally, as NetBox's `naturalize`. */
export const NATURAL_SORT_FUNCTION = 'patchbay_natural';

export class StringField<O extends StringOptions = StringOptions> extends ScalarField<O> {
  protected sqlType(): string {
    return this.options.max ? `varchar(${this.options.max})` : 'text';
  }

  protected override acceptsBlankString(): boolean {
    return true;
  }

  protected override storedSql(column: string): string {
    return column;
  }

  /** Text is indexed as itself (`::text` changes nothing). */
  override trigramExpression(): string {
    return `"${this.name}"`;
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
    this.checkFormat(text);
    return text;
  }

  /** Format rules of subclasses (slug, email, url). */
  protected checkFormat(text: string): void {
    void text;
  }

  protected format(): string | undefined {
    return undefined;
  }

  protected schema(): ValueSchema {
    const schema: ValueSchema = { type: 'string' };
    const format = this.format();
    if (format) schema.format = format;
    if (this.options.max) schema.maxLength = this.options.max;
    return schema;
  }

  override filters(): Record<string, QueryFilter> {
    return { [this.name]: textFilter([this.name]) };
  }

  override searchLookup(): string {
    return 'icontains';
  }

  /** A natural name orders by its key, which PostgreSQL computes on every write: nothing to compute per read. */
  override orderColumn(): string | undefined {
    return this.options.natural ? this.naturalKey : super.orderColumn();
  }

  private get naturalKey(): string {
    return `${this.name}_natural`;
  }

  override generatedColumns(): GeneratedColumn[] {
    return this.options.natural ? [{ name: this.naturalKey, type: 'text', expression: `${NATURAL_SORT_FUNCTION}("${this.name}")` }] : [];
  }
}

export class SlugField extends StringField {
  protected override checkFormat(text: string): void {
    if (!/^[-a-zA-Z0-9_]+$/.test(text)) throw 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.';
  }

  protected override format(): string {
    return 'slug';
  }
}

export class EmailField extends StringField {
  protected override checkFormat(text: string): void {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) throw 'Enter a valid email address.';
  }

  protected override format(): string {
    return 'email';
  }
}

export class UrlField extends StringField {
  protected override checkFormat(text: string): void {
    let ok = false;
    try {
      const url = new URL(text);
      ok = /^(https?|ftps?):$/.test(url.protocol) && /^[a-z]+:\/\//i.test(text) && url.hostname !== '';
    } catch {
      ok = false;
    }
    if (!ok) throw 'Enter a valid URL.';
  }

  protected override format(): string {
    return 'uri';
  }
}

/** A UUID in its canonical text form, lower-cased (as Python's `str(uuid)`). */
export class UuidField extends StringField {
  protected override coerce(value: unknown): string {
    const text = super.coerce(value);
    return text && text.toLowerCase();
  }

  protected override checkFormat(text: string): void {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) throw 'Must be a valid UUID.';
  }

  protected override format(): string {
    return 'uuid';
  }
}

/** An RGB colour as six lower-case hex digits, without `#` (NetBox's ColorField). */
export class ColorField extends StringField {
  protected override checkFormat(text: string): void {
    if (!/^[0-9a-f]{6}$/.test(text)) throw 'Enter a valid hexadecimal RGB color code.';
  }
}

let zones: ReadonlySet<string> | undefined;

/** An IANA time zone name (`Europe/Paris`), as the runtime knows them. */
export class TimeZoneField extends StringField {
  protected override checkFormat(text: string): void {
    zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
    if (!zones.has(text)) throw `Select a valid choice. ${text} is not one of the available choices.`;
  }

  protected override format(): string {
    return 'timezone';
  }
}

export interface IntegerOptions extends CommonOptions {
  min?: number;
  max?: number;
  /** A 64-bit column (AS numbers), read as a number; values up to 2^53 - 1. */
  big?: boolean;
}

export class IntegerField extends ScalarField<IntegerOptions> {
  protected sqlType(): string {
    return this.options.big ? 'bigint' : 'integer';
  }

  private get limit(): number {
    return this.options.big ? Number.MAX_SAFE_INTEGER : INT_MAX;
  }

  protected coerce(value: unknown): number {
    const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n)) throw 'A valid integer is required.';
    if (this.options.min !== undefined && n < this.options.min) throw `Ensure this value is greater than or equal to ${this.options.min}.`;
    if (this.options.max !== undefined && n > this.options.max) throw `Ensure this value is less than or equal to ${this.options.max}.`;
    if (Math.abs(n) > this.limit) throw `Ensure this value is less than or equal to ${this.limit}.`;
    return n;
  }

  /** node-postgres reads bigint as text. */
  protected override toJson(value: unknown): Json {
    return Number(value);
  }

  protected override storedSql(column: string): string {
    return column;
  }

  protected schema(): ValueSchema {
    const schema: ValueSchema = { type: 'integer' };
    if (this.options.big) schema.format = 'int64';
    if (this.options.min !== undefined) schema.minimum = this.options.min;
    if (this.options.max !== undefined) schema.maximum = this.options.max;
    return schema;
  }

  /** `?q=65001` finds the ASN 65001, not 165001. */
  override searchLookup(): string {
    return 'exact';
  }

  override filterValue(value: unknown): number {
    const n = this.options.big ? bigNumber(value) : wholeNumber(value);
    if (n === undefined) throw new FilterError(`Expected a whole number, got ${JSON.stringify(value)}.`, 'value');
    return n;
  }

  override filters(): Record<string, QueryFilter> {
    const parse = this.options.big
      ? (v: string) => {
          const n = bigNumber(v);
          if (n === undefined) throw new ParamError('Enter a whole number.');
          return n;
        }
      : parseWholeNumber;
    return { [this.name]: orderedFilter([this.name], parse) };
  }
}

/** A whole number within JavaScript's safe range (64-bit columns), or undefined. */
function bigNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
}

export interface DecimalOptions extends CommonOptions {
  digits: number;
  places: number;
  min?: number;
  max?: number;
}

export class DecimalField extends ScalarField<DecimalOptions> {
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

  protected schema(): ValueSchema {
    const schema: ValueSchema = { type: 'number', format: 'decimal', maxDigits: this.options.digits, decimalPlaces: this.options.places };
    if (this.options.min !== undefined) schema.minimum = this.options.min;
    if (this.options.max !== undefined) schema.maximum = this.options.max;
    return schema;
  }

  override filterValue(value: unknown): number {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw new FilterError(`Expected a number, got ${JSON.stringify(value)}.`, 'value');
    return n;
  }

  override filters(): Record<string, QueryFilter> {
    return { [this.name]: orderedFilter([this.name], parseNumber) };
  }
}

export class BooleanField extends ScalarField {
  protected sqlType(): string {
    return 'boolean';
  }

  protected override storedSql(column: string): string {
    return column;
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

  protected schema(): ValueSchema {
    return { type: 'boolean' };
  }

  override filterValue(value: unknown): boolean {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string') {
      try {
        return parseBoolean(value);
      } catch {
        // reported below
      }
    }
    throw new FilterError(`Expected true or false, got ${JSON.stringify(value)}.`, 'value');
  }

  override filters(): Record<string, QueryFilter> {
    return { [this.name]: booleanFilter([this.name]) };
  }
}

/** How a temporal kind is stored, read, written and described. */
interface TemporalKind {
  sql: string;
  format: (value: string | Date) => string;
  parse: (text: string) => string | undefined;
  parseParam: (text: string) => string;
  message: string;
  schemaFormat: string;
}

const DATETIME: TemporalKind = {
  sql: 'timestamptz',
  format: formatDateTime,
  parse: parseDateTime,
  parseParam: parseDateTimeParam,
  message: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  schemaFormat: 'date-time',
};

const DATE: TemporalKind = {
  sql: 'date',
  format: formatDate,
  parse: parseDate,
  parseParam: parseDateParam,
  message: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  schemaFormat: 'date',
};

export interface TemporalOptions extends CommonOptions {
  /** Filled with the current time when the object is created (Django's auto_now_add). */
  autoNowAdd?: boolean;
}

/** A date or a datetime: ISO 8601 text on the wire, in NetBox's formats. */
export class TemporalField extends ScalarField<TemporalOptions> {
  /** @internal Made by `f.datetime()` and `f.date()`. */
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

  protected schema(): ValueSchema {
    return { type: 'string', format: this.kind.schemaFormat };
  }

  override filterValue(value: unknown): string {
    const parsed = typeof value === 'string' ? this.kind.parse(value) : undefined;
    if (!parsed) throw new FilterError(`Expected a ${this.kind.schemaFormat}, got ${JSON.stringify(value)}.`, 'value');
    return parsed;
  }

  override filters(): Record<string, QueryFilter> {
    return { [this.name]: orderedFilter([this.name], this.kind.parseParam) };
  }
}

export class DateTimeField extends TemporalField {
  constructor(options: TemporalOptions) {
    super(DATETIME, options);
  }
}

export class DateField extends TemporalField {
  constructor(options: TemporalOptions) {
    super(DATE, options);
  }
}

export interface JsonOptions extends CommonOptions {
  /** Only a JSON object (or null, when nullable) is valid: context data that templates read by key. */
  object?: boolean;
  /** Stored as `json`, as written: keys keep their order (jsonb sorts them), for a document sent on as it is. */
  keepOrder?: boolean;
}

/** Any JSON value (or, with `object`, a JSON object), stored as jsonb. */
export class JsonField extends ScalarField<JsonOptions> {
  protected sqlType(): string {
    return this.options.keepOrder ? 'json' : 'jsonb';
  }

  protected coerce(value: unknown): string {
    if (this.options.object && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw 'JSON data must be in object form. Example: {"foo": 123}';
    }
    return JSON.stringify(value);
  }

  /** The column takes the encoded text; validators and hooks see the value as written. */
  override parse(body: Record<string, unknown>, ctx: unknown, out: WriteValues): void {
    super.parse(body, ctx, out);
    if (out.columns[this.name] !== null) out.values[this.name] = body[this.name];
  }

  protected schema(): ValueSchema {
    return { type: 'json' };
  }

  /** Compared as JSON: the value is encoded, so any value is valid jsonb. */
  override filterValue(value: unknown): string {
    return JSON.stringify(value);
  }
}

/** Read-only values filled by the kernel (`created`, `last_updated`); the change record carries its own time. */
export class TimestampField extends DateTimeField {
  constructor() {
    super({ readOnly: true });
  }

  override columns(): Column[] {
    return [{ name: this.name, type: 'timestamptz', nullable: true }];
  }

  override parse(): void {}

  override snapshot(): undefined {
    return undefined;
  }
}
