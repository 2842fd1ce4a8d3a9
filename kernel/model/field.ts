import type { Knex } from '@mikro-orm/knex';
import type { QueryFilter } from '../filters/builders.js';
import type { Comparison } from '../filters/compile.js';
import { FilterError } from '../filters/errors.js';
import { FLAG_LOOKUPS, PATTERN_LOOKUPS, type Lookups } from '../filters/lookups.js';
import type { WriteContext, WriteScope } from '../write/context.js';
import type { PropertyDescription, ValueSchema } from './description.js';
import { formatDateTime } from '../base/time.js';
import type { Model } from './model.js';
import type { OrderStep } from './ordering.js';
import type { ModelRegistry } from './registry.js';
import type { Db, ErrorMap, FieldRenderer, Json, RenderContext, RenderMode, Row } from '../base/types.js';
import type { Relate, Walk } from './walk.js';

/** A field's SQL in the select of a nested read, with the values of its `?` placeholders. */
export interface SelectedSql {
  sql: string;
  bindings: Knex.Value[];
  /** A derived table `sql` reads under `alias`, left-joined to the row `t` on its column `id`. */
  joined?: { alias: string; sql: string; bindings: Knex.Value[] };
}

/**
 * Selects beside the row `t` the value of each of `fields` that computes it in SQL (`Field.selected`) for the rows
 * `ids`, under the field's name: a value its renderer then takes from the row instead of a statement of its own.
 */
export function selectComputed(qb: Knex.QueryBuilder, db: Knex, fields: Iterable<Field>, ids: readonly number[]): void {
  for (const field of fields) {
    const selected = field.selected(ids);
    if (!selected) continue;
    qb.select(db.raw(`${selected.sql} as ??`, [...selected.bindings, field.name]));
    const { joined } = selected;
    if (joined) qb.leftJoin(db.raw(`(${joined.sql}) as ??`, [...joined.bindings, joined.alias]), `${joined.alias}.id`, 't.id');
  }
}

/** A column a field stores, in terms the entity schema and migrations understand. */
export interface Column {
  name: string;
  /** PostgreSQL type, e.g. `varchar(100)`, `integer`, `timestamptz`. */
  type: string;
  nullable: boolean;
  default?: string | number | boolean;
  /** SQL expression default, e.g. `now()`. */
  defaultRaw?: string;
  /** Foreign key target (a model key) and delete rule; `constraint: false`: no foreign key in the database. */
  references?: { model: string; onDelete: 'cascade' | 'set null' | 'restrict'; constraint?: false };
  index?: boolean;
}

/** A link table a field owns besides its model's table (a many-to-many relation). */
export interface JoinTable {
  table: string;
  /** Column holding the id of the field's model. */
  source: string;
  /** Column holding the id of `targetModel`. */
  target: string;
  targetModel: string;
}

/** An index on an expression (e.g. natural ordering); `expression` is the whole `create index` statement. */
export interface ExpressionIndex {
  name: string;
  expression: string;
}

/** A column PostgreSQL computes from others on every write (`generated always as (…) stored`), indexed. */
export interface GeneratedColumn {
  name: string;
  type: string;
  expression: string;
}

export interface CommonOptions {
  label?: string;
  helpText?: string;
  /** Must be given on create (and on PUT). Defaults: true unless nullable, blank or defaulted. */
  required?: boolean;
  nullable?: boolean;
  /** The empty string is an acceptable value. */
  blank?: boolean;
  /**
   * The value a create without this field takes; or a function of the plugin's validated settings, read once at
   * start (`(config) => config.default_status`), when the column has no default of its own: a setting must not change
   * the schema.
   */
  default?: Json | ((config: Record<string, unknown>) => Json);
  /** One object at most has a given value. */
  unique?: boolean;
  /** Clients cannot write it (the server may, in internal writes). */
  readOnly?: boolean;
}

/** What parsing one item produced: the columns to store and every written value by field name. */
export interface WriteValues {
  columns: Row;
  /**
   * Parsed values by field name, as lifecycle hooks and validators see them: a scalar's value, a foreign
   * key's id, a generic relation's `{model, id}`, a many-to-many field's ids, tags, custom field data.
   */
  values: Record<string, unknown>;
}

/** An object one row refers to. */
export interface ObjectRef {
  model: string;
  id: number;
}

/** How rows of a field's model refer to objects of another model: what deleting those objects does to them. */
export interface Reference {
  onDelete: 'cascade' | 'protect' | 'set null';
  /** The rows of the field's model that refer to `ids`. */
  select(db: Db, ids: number[]): Knex.QueryBuilder;
}

/** What a field's cleanup runs in: the deleting transaction, and work for once it has committed (files). */
export interface CleanupContext extends RenderContext {
  afterCommit(work: () => Promise<void>): void;
}

/** A read-only field one field adds to a model (a count on its target, `_depth` on a tree). */
export interface DerivedField {
  model: Model;
  name: string;
  field: Field;
  /** It joins the model's brief form. */
  brief?: boolean;
}

/** A stored object and the value its field parsed for it, for fields that keep data outside the row. */
export interface StoreEntry {
  id: number;
  value: unknown;
}

/** One object of a write and the value its field parsed for it; `id` when the object exists already. */
export interface CheckEntry {
  id?: number;
  value: unknown;
  /** The object as it will be stored (for rules that read the object's other fields). */
  row: Row;
}

/**
 * A field kind: every decision about its fields is its own — columns and tables, relations, rendering (in
 * batches), parsing, filters and the SQL of each lookup, ordering, its description (OPTIONS, later OpenAPI
 * and GraphQL) and its change-log snapshot. The rest of the kernel asks the field; it never switches on its class.
 * A plugin defines a new kind by extending `Field` (or `ScalarField`) through the public API.
 */
export abstract class Field<O extends CommonOptions = CommonOptions> {
  private bound?: { model: Model; name: string };

  constructor(readonly options: O) {}

  /** The default the plugin's settings gave (`configure`). */
  private configured?: Json;

  /** Reads a default that is a function of the settings of the plugin that declares the field; once, at start. */
  configure(config: Record<string, unknown>): void {
    if (typeof this.options.default === 'function') this.configured = this.options.default(config);
  }

  /** The default the database column may hold: a fixed one, not one of the settings. */
  protected get fixedDefault(): Json | undefined {
    return typeof this.options.default === 'function' ? undefined : this.options.default;
  }

  /** Binds the field to its model under `name`; a field object belongs to one model only. */
  attach(model: Model, name: string): void {
    if (this.bound) {
      throw new Error(
        `${model.key}.${name}: this field object is already ${this.bound.model.key}.${this.bound.name}; create one field per model (call the builder again)`,
      );
    }
    this.bound = { model, name };
  }

  get name(): string {
    return this.bound?.name ?? '';
  }

  get model(): Model {
    if (!this.bound) throw new Error('The field is not attached to a model yet');
    return this.bound.model;
  }

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

  /** What a create (or PUT) without this required field is told. */
  get requiredMessage(): string {
    return 'This field is required.';
  }

  /** Whether it is written as a file part of a multipart/form-data request. */
  get receivesFiles(): boolean {
    return false;
  }

  private keyList?: string[];

  /** Keys this field reads from a written body (`writtenKeys`), made once the field is bound: every write asks. */
  get keys(): string[] {
    if (!this.bound) return this.writtenKeys();
    return (this.keyList ??= this.writtenKeys());
  }

  protected writtenKeys(): string[] {
    return [this.name];
  }

  // ---- storage and relations

  abstract columns(): Column[];

  joinTables(): JoinTable[] {
    return [];
  }

  indexes(): ExpressionIndex[] {
    return [];
  }

  /**
   * What a trigram index is built on to serve the kernel's pattern lookups (`??::text like`) on this field, for a
   * search term that uses one: `"name"` for text, `("address"::text)` for another one-column value; undefined: none.
   */
  trigramExpression(): string | undefined {
    return undefined;
  }

  /**
   * What REST renders under `key`, as SQL on the row `alias` whose JSON (`json_build_object`'s) is that value: what
   * lets PostgreSQL answer a whole GraphQL list. Undefined: only the field's renderer knows the value.
   */
  jsonSql(_key: string, _alias: string): string | undefined {
    return undefined;
  }

  /** The value as plain readers (templates) see it under the field's name, for a field whose value is its column's. */
  plainValue(_row: Row): Json | undefined {
    return undefined;
  }

  /**
   * The columns of a row rendering this field reads (its own by default); undefined when it needs the whole row.
   * Brief and nested reads select only these.
   */
  reads(): string[] | undefined {
    return this.columns().map((c) => c.name);
  }

  /**
   * SQL over the row `t` computing this field's value in the select of a nested read (`_depth` of a tree parent) or of
   * an object read whole on its own (a detail: a device's config context), selected under the field's name, with its
   * bindings; `ids` are the ids the read selects. Undefined (most fields) when rendering reads columns or loads on its
   * own. A renderer given rows that carry it uses it: the value itself, or what the renderer makes it from (a config
   * context's data, which it merges).
   */
  selected(ids: readonly number[]): SelectedSql | undefined {
    void ids;
    return undefined;
  }

  /** Columns the database derives for this field (a natural-order key); never written, read or rendered. */
  generatedColumns(): GeneratedColumn[] {
    return [];
  }

  /**
   * Rendered only where another model's field asks for it by key when nesting this model (the connection status
   * of an interface inside an IP address), never in the model's own representations.
   */
  get nestedOnly(): boolean {
    return false;
  }

  /**
   * Holds a secret (a password hash, a token key): shown only by the field's own rendering and its rules, never
   * copied out of its row by other means (templates, which read rows' columns).
   */
  get secret(): boolean {
    return false;
  }

  /** Whether the field's keys show when its model is nested in another object (NetBox leaves counts out). */
  get rendersNested(): boolean {
    return true;
  }

  /** Whether this field is the `parent` that makes its model a tree. */
  get treeParent(): boolean {
    return false;
  }

  /** Called once every model is registered: checks what the field refers to, returns the fields it adds. */
  link(registry: ModelRegistry): DerivedField[] {
    void registry;
    return [];
  }

  /** Called once every field is linked, to check names that refer to other models' fields; throws a start-up error. */
  verify(registry: ModelRegistry): void {
    void registry;
  }

  /** The models (by key) this field names: their apps must be its plugin's own or among its dependencies. */
  refersTo(): string[] {
    return [];
  }

  /** How this field's rows refer to objects of `target`, if they do (for deletes). */
  references(target: Model, registry: ModelRegistry): Reference | undefined {
    void target;
    void registry;
    return undefined;
  }

  /** The object `row` refers to through this field (a model's declared `parent`, for the change log). */
  pointsAt(row: Row, registry: ModelRegistry): ObjectRef | null {
    void row;
    void registry;
    return null;
  }

  // ---- reading

  /**
   * Loads what a page of rows needs (one query at most per related model) and returns the renderer. A field
   * with several keys may skip the work of keys `wanted` refuses (`?fields=`/`?omit=`).
   */
  abstract prepare(rows: Row[], ctx: RenderContext, mode: RenderMode, wanted?: (key: string) => boolean): Promise<FieldRenderer> | FieldRenderer;

  /** The keys of the representation this field occupies, described once for OPTIONS, OpenAPI and GraphQL. */
  describe(registry: ModelRegistry): PropertyDescription[] {
    return [{ ...this.property(this.name), ...this.schema(registry) }];
  }

  /** What the field's value is on the wire. */
  protected abstract schema(registry: ModelRegistry): ValueSchema;

  /** The common facts of one described key. */
  protected property(key: string, label = this.label): Omit<PropertyDescription, keyof ValueSchema> {
    const property: Omit<PropertyDescription, keyof ValueSchema> = {
      key, label, readOnly: this.readOnly, required: this.required, nullable: this.nullable,
    };
    if (this.options.helpText) property.helpText = this.options.helpText;
    const value = this.createDefault();
    if (this.options.default !== undefined && value !== undefined) property.default = value;
    if (this.options.blank) property.blank = true;
    return property;
  }

  // ---- walking relations

  /** How a reader reaches the objects key `key` names, when it names any (GraphQL's nested types and unions). */
  walk(key: string, registry: ModelRegistry): Walk | undefined {
    void key;
    void registry;
    return undefined;
  }

  /** How rows of this field's model refer to objects of `target` through the field, as SQL, when they do. */
  referring(target: Model, registry: ModelRegistry): Relate | undefined {
    void target;
    void registry;
    return undefined;
  }

  /** The name of the list of this field's model a relation offers on its targets (`devices` on a site), if it offers one. */
  get related(): string | undefined {
    return undefined;
  }

  // ---- writing

  /**
   * Parses the written value(s) of this field from `body` into `out`; throws ValidationError. Called only when
   * one of `keys` is present in the body. Queries go through `ctx.batch`/`ctx.resolve`, so that a bulk write
   * of N objects costs one query per round, not one per object.
   */
  abstract parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> | void;

  /** Sets values the server fills whatever the body says (e.g. the creating user); runs before parsing. */
  fill(ctx: WriteContext, out: WriteValues): Promise<void> | void {
    void ctx;
    void out;
  }

  /** The value a create uses when the body leaves the field out. */
  createDefault(): Json | undefined {
    return this.configured ?? this.fixedDefault;
  }

  /**
   * Checks the values every object of a write gave the field, together (uniqueness across objects, cycles in
   * a tree), once all of them parsed; returns each entry's errors, undefined when it passes.
   */
  check?(entries: CheckEntry[], scope: WriteScope): Promise<(ErrorMap | undefined)[]>;

  /**
   * Stores what the field keeps outside its model's row (links, side tables) for every object of a write at
   * once; `entries` are the objects whose body gave the field a value.
   */
  store?(entries: StoreEntry[], scope: WriteScope): Promise<void>;

  /** Removes what the field keeps outside the model's table, when objects `ids` are deleted. */
  async cleanup(ids: number[], ctx: CleanupContext): Promise<void> {
    void ids;
    void ctx;
  }

  // ---- filtering

  /** The query-string filters the field offers (`name`, `name_id`, `name__ic`...). */
  filters(registry: ModelRegistry): Record<string, QueryFilter> {
    void registry;
    return {};
  }

  /** The comparisons the field's column supports, and the SQL of each. */
  lookups(): Lookups {
    return {};
  }

  /** Checks and converts one value compared with `lookup` (from constraints, attribute sets, filters). */
  filterValue(value: unknown, lookup: string): unknown {
    void lookup;
    return value;
  }

  /** Compiles one comparison on this field; the default compares the field's one column with its lookups. */
  condition(c: Comparison): void {
    let { rest, lookup } = c;
    const lookups = this.lookups();
    // Django's `name__icontains` reaches a scalar as path ['name', 'icontains'].
    if (rest.length === 1 && lookup === 'exact' && lookups[rest[0]]) [lookup, rest] = [rest[0], []];
    if (rest.length) throw new FilterError(`Unsupported lookup '${rest[0]}' for '${this.name}'.`);
    const sql = lookups[lookup];
    const [column] = this.columns();
    if (!sql || !column) throw new FilterError(`'${this.name}' cannot be filtered with '${lookup}'.`);
    sql(c.qb, `${c.alias}.${column.name}`, this.comparedValue(c.value, lookup));
  }

  /** A compared value made ready for `lookup`: flags as booleans, lists item by item. */
  protected comparedValue(value: unknown, lookup: string): unknown {
    if (FLAG_LOOKUPS.has(lookup)) {
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw new FilterError(`The '${lookup}' lookup expects true or false.`, 'value');
    }
    if (PATTERN_LOOKUPS.has(lookup) || value === null) return value;
    if (lookup === 'in') {
      if (!Array.isArray(value)) throw new FilterError("The 'in' lookup expects a list.", 'value');
      return value.map((v) => (v === null ? null : this.filterValue(v, 'exact')));
    }
    if (typeof value === 'object') throw new FilterError(`Invalid value for '${this.name}': ${JSON.stringify(value)}.`, 'value');
    return this.filterValue(value, lookup);
  }

  /** The lookup `q` compares this field with when a model's `search` names it without one; none: it must be named. */
  searchLookup(): string | undefined {
    return undefined;
  }

  // ---- ordering

  /**
   * The column of its own row this field orders by, which an index can serve; undefined when it orders by none
   * (below) or needs more (a relation orders by its target's fields). The default is its first column. A secret
   * orders nothing (its order would tell of it), nor does a `json` column (PostgreSQL has no order for it).
   */
  orderColumn(): string | undefined {
    const [column] = this.columns();
    return column && !this.secret && column.type !== 'json' ? column.name : undefined;
  }

  /** Whether its `orderColumn` orders rows without a value first (in an index: `nulls first`). */
  orderNullsFirst(): boolean {
    return false;
  }

  /** Orders by this field: by its `orderColumn`, unless it has none (the term is then dropped, as unknown ones are). */
  order(step: OrderStep): void {
    const column = this.orderColumn();
    if (column && !step.rest.length) step.qb.orderBy(`${step.alias}.${column}`, step.desc ? 'desc' : 'asc');
  }

  // ---- change log

  /**
   * What the change log records of this field for a batch of rows, as model values (ids for relations): every
   * stored value, derived ones included, as NetBox records every concrete field; undefined leaves it out
   * (computed values, secrets, the kernel's own timestamps).
   */
  snapshot(rows: Row[], ctx: RenderContext): Promise<FieldRenderer | undefined> | FieldRenderer | undefined {
    void rows;
    void ctx;
    const columns = this.columns();
    if (columns.length !== 1) return undefined;
    const column = columns[0].name;
    return (row, out) => {
      out[this.name] = snapshotValue(row[column]);
    };
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
