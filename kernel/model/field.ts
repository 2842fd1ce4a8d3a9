import type { Model } from './model.js';
import { formatDateTime } from './fields/time.js';
import type { Db, FieldRenderer, Json, JsonObject, RenderContext, RenderMode, Row } from './types.js';
import type { ModelRegistry } from './registry.js';

/** A column a field stores, in terms the entity schema and migrations understand. */
export interface Column {
  name: string;
  /** PostgreSQL type, e.g. `varchar(100)`, `integer`, `timestamptz`. */
  type: string;
  nullable: boolean;
  default?: string | number | boolean;
  /** SQL expression default, e.g. `now()`. */
  defaultRaw?: string;
  /** Foreign key target (a model key) and delete rule. */
  references?: { model: string; onDelete: 'cascade' | 'set null' | 'restrict' };
  index?: boolean;
}

export interface CommonOptions {
  label?: string;
  helpText?: string;
  /** Must be given on create (and on PUT). Defaults: true unless nullable, blank or defaulted. */
  required?: boolean;
  nullable?: boolean;
  /** The empty string is an acceptable value. */
  blank?: boolean;
  default?: Json;
  /** One object at most has a given value. */
  unique?: boolean;
  readOnly?: boolean;
}

/** What write parsing needs: the registry to resolve relations and the transaction to read from. */
export interface WriteContext {
  db: Db;
  registry: ModelRegistry;
  /** The stored row when updating, absent when creating. */
  instance?: Row;
  /** Who writes (absent for internal writes). */
  actor?: { userId: number | null; username: string };
}

/** Column values and many-to-many sets a write produced. */
export interface WriteValues {
  columns: Row;
  m2m: Map<string, number[]>;
  /** Work for fields that keep data outside the model's table, run once the object's id is known. */
  after: ((id: number, db: Db) => Promise<void>)[];
}

/** How the filter DSL treats a field; undefined: the field has no filters. */
export type FilterKind = 'string' | 'choice' | 'integer' | 'decimal' | 'date' | 'datetime' | 'boolean' | 'list' | 'fk' | 'm2m' | 'generic';

/** OPTIONS metadata of one field (DRF's SimpleMetadata shape). */
export type FieldMetadata = Record<string, Json>;

/**
 * One declared field of a model. A field knows its columns, how it renders (in batches),
 * how it parses a written value and how OPTIONS describes it.
 */
export abstract class Field<O extends CommonOptions = CommonOptions> {
  /** Set by `defineModel`. */
  name = '';
  model!: Model;

  constructor(readonly options: O) {}

  get label(): string {
    return this.options.label ?? humanise(this.name);
  }

  get nullable(): boolean {
    return this.options.nullable ?? false;
  }

  get readOnly(): boolean {
    return this.options.readOnly ?? false;
  }

  get required(): boolean {
    if (this.readOnly) return false;
    return this.options.required ?? !(this.nullable || this.options.blank || this.options.default !== undefined);
  }

  /** Keys this field occupies in a rendered object and in a written body. */
  get keys(): string[] {
    return [this.name];
  }

  abstract columns(): Column[];

  filterKind(): FilterKind | undefined {
    return undefined;
  }

  /** The column that orders by this field, if it can be ordered. */
  orderColumn(): string | undefined {
    return this.columns()[0]?.name;
  }

  /** Loads what a page of rows needs (one query at most per related model) and returns the renderer. */
  abstract prepare(rows: Row[], ctx: RenderContext, mode: RenderMode): Promise<FieldRenderer> | FieldRenderer;

  /**
   * Parses the written value(s) of this field from `body` into `out`; throws ValidationError.
   * Called only when one of `keys` is present in the body.
   */
  abstract parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> | void;

  /** OPTIONS metadata of the field. */
  metadata(registry: ModelRegistry): FieldMetadata {
    void registry;
    const meta: FieldMetadata = {
      type: this.metadataType(),
      required: this.required,
      read_only: this.readOnly,
      label: this.label,
    };
    if (this.options.helpText) meta.help_text = this.options.helpText;
    return meta;
  }

  protected abstract metadataType(): string;

  /**
   * What the change log records of this field, as model values (ids for relations): `{key: value}`,
   * or undefined to leave it out (computed values, secrets).
   */
  async snapshot(row: Row, ctx: RenderContext): Promise<JsonObject | undefined> {
    void ctx;
    const columns = this.columns();
    if (this.readOnly || columns.length !== 1) return undefined;
    return { [this.name]: snapshotValue(row[columns[0].name]) };
  }

  /** Sets values the server fills whatever the body says (e.g. the creating user); runs before parsing. */
  async fill(ctx: WriteContext, mode: 'create' | 'update' | 'partial', out: WriteValues): Promise<void> {
    void ctx;
    void mode;
    void out;
  }

  /** Removes what the field keeps outside the model's table, when objects `ids` are deleted. */
  async cleanup(ids: number[], ctx: RenderContext): Promise<void> {
    void ids;
    void ctx;
  }

  /** Database default applied on create when the body leaves the field out. */
  createDefault(): Json | undefined {
    return this.options.default;
  }
}

/** A stored value as JSON: timestamps in NetBox's format, everything else as PostgreSQL returned it. */
export function snapshotValue(value: unknown): Json {
  if (value instanceof Date) return formatDateTime(value);
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/.test(value)) return formatDateTime(value);
  return (value ?? null) as Json;
}

/** `site_count` → `Site count`, as Django humanises field names. */
export function humanise(name: string): string {
  const text = name.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Used by fields that read nothing but their own columns. */
export function plainRenderer(key: string, read: (row: Row) => Json): FieldRenderer {
  return (row, out) => {
    out[key] = read(row);
  };
}
