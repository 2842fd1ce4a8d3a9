import type { Field, WriteContext } from './field.js';
import type { WriteSession } from './writer.js';
import type { RenderContext, Row } from './types.js';

/** Several fields whose values together are unique, optionally only where `when` holds. */
export interface UniqueConstraint {
  fields: string[];
  /** Columns that must be NULL for the constraint to apply (PostgreSQL partial index). */
  whenNull?: string[];
  /** Message under `__all__` (NetBox's custom constraint messages). */
  message?: string;
}

/** A model's own write rule, run after its fields parsed; throws ValidationError. */
export type ModelValidator = (row: Row, ctx: WriteContext & { model: Model }) => Promise<void> | void;

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

export interface ModelDeclaration {
  /** URL segment under the plugin's base path, e.g. `tenant-groups`. */
  path: string;
  /** Lower-case human name, e.g. `tenant group`. Defaults to the model name. */
  verboseName?: string;
  verboseNamePlural?: string;
  fields: Record<string, Field>;
  /** Fields of `?brief=1` and of the nested representation, besides id, url and display. */
  brief: string[];
  /** Default ordering; `-` reverses. */
  ordering?: string[];
  /** Fields `q` searches. */
  search?: string[];
  /** `display` of one object from its row; defaults to its `name`. */
  display?: (row: Row) => string;
  displayLoader?: DisplayLoader;
  unique?: UniqueConstraint[];
  /** The field naming the object this one belongs to (a foreign key or generic relation), for the change log. */
  parent?: string;
  /** Served read-only: writes through the API answer 405 (the change log, for instance). */
  readOnly?: boolean;
  /** Capabilities other plugins act on (e.g. `contacts`, `tags`); the kernel gives them no meaning. */
  features?: string[];
  validate?: ModelValidator;
  authorize?: WriteAuthorizer;
  /** The model's own clean-up when its objects are deleted, inside the transaction (e.g. `session.afterCommit` to remove files). */
  onDelete?: (rows: Row[], session: WriteSession) => Promise<void>;
}

/** A model as declared: the single source every derived artefact reads. */
export class Model {
  readonly app: string;
  readonly name: string;
  readonly table: string;
  readonly verboseName: string;
  readonly verboseNamePlural: string;
  readonly fields: Field[];
  readonly features: ReadonlySet<string>;

  constructor(readonly key: string, readonly decl: ModelDeclaration, standard: { head: Field[]; tail: Field[] }) {
    const [app, name] = key.split('.');
    if (!app || !name || !/^[a-z][a-z0-9_]*$/.test(app) || !/^[a-z][a-z0-9]*$/.test(name)) {
      throw new Error(`Model key "${key}" must be "<app>.<model>" in lower case`);
    }
    this.app = app;
    this.name = name;
    this.table = `${app}_${name}`;
    this.verboseName = decl.verboseName ?? name;
    this.verboseNamePlural = decl.verboseNamePlural ?? `${this.verboseName}s`;
    const declared = Object.entries(decl.fields).map(([fieldName, field]) => {
      field.name = fieldName;
      field.model = this;
      return field;
    });
    for (const field of [...standard.head, ...standard.tail]) field.model = this;
    this.fields = [...standard.head, ...declared, ...standard.tail];
    this.features = new Set(decl.features ?? []);
  }

  get path(): string {
    return this.decl.path;
  }

  get brief(): string[] {
    return ['id', 'url', 'display', ...this.decl.brief];
  }

  get ordering(): string[] {
    return this.decl.ordering ?? ['id'];
  }

  get search(): string[] {
    return this.decl.search ?? [];
  }

  get unique(): UniqueConstraint[] {
    const single = this.fields.filter((f) => f.options.unique).map((f) => ({ fields: [f.name] }));
    return [...single, ...(this.decl.unique ?? [])];
  }

  field(name: string): Field | undefined {
    return this.fields.find((f) => f.name === name);
  }

  /** `TenantGroup`-style title for OPTIONS (`Tenant Group List`). */
  get title(): string {
    return this.verboseName.replace(/\b\w/g, (c) => c.toUpperCase());
  }

  displayOf(row: Row): string {
    return this.decl.display ? this.decl.display(row) : String(row.name ?? row.id);
  }
}
