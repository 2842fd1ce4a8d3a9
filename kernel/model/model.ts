import type { WriteContext, WriteScope } from '../write/context.js';
import type { WriteSession } from '../write/session.js';
import type { QueryFilter } from '../filters/builders.js';
import type { Field } from './field.js';
import type { ErrorMap, RenderContext, Row } from '../base/types.js';

/** Several fields whose values together are unique, optionally only where `when` holds. */
export interface UniqueConstraint {
  fields: string[];
  /** Columns that must be NULL for the constraint to apply (PostgreSQL partial index). */
  whenNull?: string[];
  /** Text fields that must not be blank for the constraint to apply (NetBox's `condition=~Q(name='')`). */
  whenSet?: string[];
  /** Fields of `fields` compared case-insensitively (NetBox's `Lower('name')`). */
  lower?: string[];
  /** Message under `__all__` (NetBox's custom constraint messages). */
  message?: string;
}

/** What a model's own write rule sees besides the merged row. */
export interface ValidateContext extends WriteContext {
  model: Model;
  /** Every value the body gave, parsed (many-to-many ids, generic `{model, id}` and the like included). */
  values: Record<string, unknown>;
}

/** A model's own write rule, run after its fields parsed, on the object as it will be stored; throws ValidationError. */
export type ModelValidator = (row: Row, ctx: ValidateContext) => Promise<void> | void;

/** One object of a write as a model's `check` sees it: as it will be stored, and its id when it exists. */
export interface CheckedRow {
  row: Row;
  id?: number;
}

/**
 * A model's rule over all the objects of a write at once (after `validate`): for rules the objects of one write
 * can break together (two devices in the same rack units) and set-based checks. Returns errors aligned with `rows`.
 */
export type ModelCheck = (rows: CheckedRow[], scope: WriteScope) => Promise<(ErrorMap | undefined)[]>;

/** What a model's own write rule learns about the request. */
export interface AuthorizeContext {
  action: 'add' | 'change';
  /** The stored row before a change. */
  previous?: Row;
  userId: number | null;
  isSuperuser: boolean;
  /** Whether the user holds `action` on model `modelKey` at all. */
  can(modelKey: string, action: string): Promise<boolean>;
}

/**
 * A model's own write permission rule, for what constraints cannot express: `allow` skips the constraint
 * check of the written object, `check` applies it; throwing an HttpError refuses.
 */
export type WriteAuthorizer = (row: Row, ctx: AuthorizeContext) => Promise<'allow' | 'check'>;

/** Builds the `display` strings of a page of rows at once (when they need related data). */
export type DisplayLoader = (rows: Row[], ctx: RenderContext) => Promise<Map<number, string>>;

/** One object about to be stored, as a `beforeSave` hook sees it. */
export interface SaveItem {
  action: 'create' | 'update';
  body: Record<string, unknown>;
  /** Every written value, parsed, by field name. */
  values: Record<string, unknown>;
  /** The columns to store; a hook may set derived ones here. */
  columns: Row;
  /** The stored row before an update. */
  instance?: Row;
  /** The object as it will be stored: the instance with the columns applied. */
  readonly row: Row;
}

/** One stored object, as an `afterSave` hook sees it. */
export interface SavedItem {
  action: 'create' | 'update';
  /** The row as stored. */
  row: Row;
  instance?: Row;
  values: Record<string, unknown>;
}

/**
 * A model's lifecycle hooks. All run inside the write's transaction and roll back with it; what they write
 * through the session is validated, change-logged and evented like any other write.
 */
export interface ModelHooks {
  /** Before each object is stored (after its fields parsed): may set derived columns; a ValidationError refuses this item. */
  beforeSave?(item: SaveItem, session: WriteSession): Promise<void> | void;
  /** Once a write stored its objects, with all of them: derived objects (a device's components) go here. */
  afterSave?(items: SavedItem[], session: WriteSession): Promise<void> | void;
  /** Before objects are deleted (cascaded ones included), with the rows of one model at a time. */
  beforeDelete?(rows: Row[], session: WriteSession): Promise<void> | void;
  /** After they are gone; `session.afterCommit` schedules work for after the commit (removing files). */
  afterDelete?(rows: Row[], session: WriteSession): Promise<void> | void;
}

export interface ModelDeclaration {
  /** URL segment under the plugin's base path, e.g. `tenant-groups`. */
  path: string;
  /** Lower-case human name, e.g. `tenant group`. Defaults to the model name. */
  verboseName?: string;
  verboseNamePlural?: string;
  /**
   * The class name NetBox gives the model (`VMInterface`): its GraphQL type (`VMInterfaceType`), root fields
   * (`vm_interface`, `vm_interface_list`) and `class_type`. Default: the verbose name in PascalCase (`IPAddress`).
   */
  className?: string;
  /** `false`: left out of the GraphQL API (secrets, permissions). */
  graphql?: false;
  fields: Record<string, Field>;
  /** Fields of `?brief=1` and of the nested representation, besides id, url and display. */
  brief: string[];
  /** Default ordering; `-` reverses. */
  ordering?: string[];
  /** Fields `q` searches. */
  search?: string[];
  /**
   * Filters along relation paths, beside the fields' own: `{ region: 'site__region' }` offers `region_id` and
   * `region` (by slug, username or name, or the attribute after a dot: `device__device_type.model`; on a tree,
   * a node matches its descendants too).
   */
  relatedFilters?: Record<string, string>;
  /** Query-string filters of the model's own, beside those its fields and relatedFilters derive. */
  filters?: Record<string, QueryFilter>;
  /** `display` of one object from its row; defaults to its `name`. */
  display?: (row: Row) => string;
  displayLoader?: DisplayLoader;
  /** The fields `display` or `displayLoader` read: lists in brief and nested forms then select only what they show. */
  displayUses?: string[];
  unique?: UniqueConstraint[];
  /**
   * The field naming the object this one belongs to (a foreign key or generic relation), for the change log; of
   * several (`['device_type', 'module_type']`), the first that is set.
   */
  parent?: string | string[];
  /** Served read-only: writes through the API answer 405 (the change log, for instance). */
  readOnly?: boolean;
  /** `false`: a table the plugin keeps for itself (derived data such as cable paths), stored but not served. */
  served?: boolean;
  /** Capabilities other plugins act on (e.g. `contacts`, `tags`); the kernel gives them no meaning. */
  features?: string[];
  validate?: ModelValidator;
  /** One rule over all the objects of a write, or several, each run in turn. */
  check?: ModelCheck | ModelCheck[];
  authorize?: WriteAuthorizer;
  hooks?: ModelHooks;
}

/** A model as declared: the single source every derived artefact reads. */
export class Model {
  readonly app: string;
  readonly name: string;
  readonly table: string;
  readonly verboseName: string;
  readonly verboseNamePlural: string;
  readonly fields: Field[];
  /** The fields by name: rendering and writing look fields up per row. */
  private readonly byName: ReadonlyMap<string, Field>;
  readonly features: ReadonlySet<string>;

  constructor(readonly key: string, readonly decl: ModelDeclaration, standard: { head: Record<string, Field>; tail: Record<string, Field> }) {
    const [app, name] = key.split('.');
    if (!app || !name || !/^[a-z][a-z0-9_]*$/.test(app) || !/^[a-z][a-z0-9]*$/.test(name)) {
      throw new Error(`Model key "${key}" must be "<app>.<model>" in lower case`);
    }
    // TypeScript requires these; a plugin written in JavaScript learns it here, in words.
    for (const required of ['path', 'fields', 'brief'] as const) {
      if (decl?.[required] === undefined) throw new Error(`${key}: the declaration has no "${required}"`);
    }
    this.app = app;
    this.name = name;
    this.table = `${app}_${name}`;
    this.verboseName = decl.verboseName ?? name;
    this.verboseNamePlural = decl.verboseNamePlural ?? `${this.verboseName}s`;
    const all = { ...standard.head, ...decl.fields, ...standard.tail };
    for (const clash of Object.keys(decl.fields).filter((n) => n in standard.head || n in standard.tail)) {
      throw new Error(`${key}: "${clash}" is a field every model has; it cannot be declared`);
    }
    this.fields = Object.entries(all).map(([fieldName, field]) => {
      field.attach(this, fieldName);
      return field;
    });
    this.byName = new Map(this.fields.map((f) => [f.name, f]));
    this.features = new Set(decl.features ?? []);
  }

  get path(): string {
    return this.decl.path;
  }

  get served(): boolean {
    return this.decl.served ?? true;
  }

  /** Brief names other models' fields add (a count NetBox shows in the brief form), in the output's order. */
  private readonly briefAdded: string[] = [];

  addBrief(name: string): void {
    this.briefAdded.push(name);
  }

  /** A tree's `_depth` stays last, as NetBox keeps it. */
  get brief(): string[] {
    const own = this.decl.brief;
    if (own.at(-1) !== '_depth') return ['id', 'url', 'display', ...own, ...this.briefAdded];
    return ['id', 'url', 'display', ...own.slice(0, -1), ...this.briefAdded, '_depth'];
  }

  get ordering(): string[] {
    return this.decl.ordering ?? ['id'];
  }

  get search(): string[] {
    return this.decl.search ?? [];
  }

  /** A tree model has a field that is its parent (and so a `_depth`). */
  get isTree(): boolean {
    return this.fields.some((f) => f.treeParent);
  }

  get unique(): UniqueConstraint[] {
    const single = this.fields.filter((f) => f.options.unique).map((f) => ({ fields: [f.name] }));
    return [...single, ...(this.decl.unique ?? [])];
  }

  field(name: string): Field | undefined {
    return this.byName.get(name);
  }

  /** `IPAddress` from `IP address`, unless declared. */
  get className(): string {
    return this.decl.className ?? this.verboseName.replace(/(^|\s+)(\w)/g, (_m, _s, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
  }

  /** `TenantGroup`-style title for OPTIONS (`Tenant Group List`). */
  get title(): string {
    return this.verboseName.replace(/\b\w/g, (c) => c.toUpperCase());
  }

  displayOf(row: Row): string {
    return this.decl.display ? this.decl.display(row) : String(row.name ?? row.id);
  }
}
