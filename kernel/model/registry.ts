import type { Field } from './field.js';
import { CountField, DepthField } from './fields/computed.js';
import { ForeignKeyField, ParentField } from './fields/foreign-key.js';
import { GenericForeignKeyField } from './fields/generic.js';
import { ManyToManyField } from './fields/many-to-many.js';
import type { Model } from './model.js';
import { ObjectTypes } from './object-types.js';
import { applyOrdering } from './ordering.js';
import { renderRows } from './render.js';
import type { JsonObject, RenderContext, RenderMode } from './types.js';

/** A field of another model that points at a model: what deleting an object must look at. */
export type Dependent = { model: Model; field: ForeignKeyField | GenericForeignKeyField };

interface Mount {
  /** e.g. `/api/tenancy/`. */
  api: string;
  /** e.g. `/tenancy/`: where `display_url` points. */
  ui: string;
}

/** The models of one server: lookup by key, URLs, derived fields and relations between models. */
export class ModelRegistry {
  private readonly models = new Map<string, Model>();
  private readonly mounts = new Map<string, Mount>();
  private readonly extras = new Map<string, Field[]>();
  /** Fields plugins add to other plugins' models (tags, custom fields), placed before `created`. */
  private readonly contributed = new Map<string, Field[]>();
  private readonly contributors: ((model: Model) => Field[])[] = [];
  readonly objectTypes = new ObjectTypes();

  register(model: Model, mount: Mount): void {
    if (this.models.has(model.key)) throw new Error(`Model ${model.key} is registered twice`);
    this.models.set(model.key, model);
    this.mounts.set(model.key, mount);
  }

  /** `fields(model)` gives the fields to add to `model` (one instance per model); applied by `finalize`. */
  contribute(fields: (model: Model) => Field[]): void {
    this.contributors.push(fields);
  }

  /** Checks cross-model references and adds the fields models contribute to each other. */
  finalize(): void {
    for (const model of this.models.values()) {
      const added = this.contributors.flatMap((c) => c(model));
      for (const field of added) {
        if (model.field(field.name)) throw new Error(`${model.key}: field "${field.name}" is declared twice`);
        field.model = model;
      }
      if (added.length) this.contributed.set(model.key, added);
    }
    for (const model of this.models.values()) {
      for (const field of model.fields) {
        if (field instanceof ForeignKeyField || field instanceof ManyToManyField) {
          const target = this.models.get(field.target);
          if (!target) {
            throw new Error(`${model.key}.${field.name} refers to ${field.target}, which no enabled plugin provides`);
          }
          if (field.options.countAs) {
            const source =
              field instanceof ManyToManyField
                ? { table: field.join.table, column: field.join.target, counted: field.join.source }
                : { table: model.table, column: field.column, counted: 'id' };
            this.addExtra(target, new CountField(field.options.countAs, target, source, target.fields.some((f) => f instanceof ParentField)));
          }
        }
        if (field instanceof ParentField) this.addExtra(model, new DepthField(model));
      }
    }
    for (const model of this.models.values()) {
      for (const name of model.brief) {
        if (!this.fieldOf(model, name)) throw new Error(`${model.key}: brief field "${name}" is not a field of the model`);
      }
    }
  }

  private addExtra(model: Model, field: Field): void {
    const list = this.extras.get(model.key) ?? [];
    if (list.some((f) => f.name === field.name) || model.field(field.name)) {
      throw new Error(`${model.key}: field "${field.name}" is declared twice`);
    }
    list.push(field);
    this.extras.set(model.key, list);
  }

  get(key: string): Model {
    const model = this.models.get(key);
    if (!model) throw new Error(`Unknown model ${key}`);
    return model;
  }

  find(key: string): Model | undefined {
    return this.models.get(key);
  }

  all(): Model[] {
    return [...this.models.values()];
  }

  apiPath(model: Model): string {
    return `${this.mounts.get(model.key)!.api}${model.path}/`;
  }

  uiPath(model: Model): string {
    return `${this.mounts.get(model.key)!.ui}${model.path}/`;
  }

  /** A field computed for `model` by the kernel or contributed by another model or plugin. */
  extraField(model: Model, name: string): Field | undefined {
    return (this.contributed.get(model.key) ?? []).concat(this.extras.get(model.key) ?? []).find((f) => f.name === name);
  }

  fieldOf(model: Model, name: string): Field | undefined {
    return model.field(name) ?? this.extraField(model, name);
  }

  /** Every field a representation of `model` carries, in output order. */
  outputFields(model: Model, mode: RenderMode): Field[] {
    if (mode === 'full') {
      const tail = model.fields.length - 2; // created, last_updated
      const contributed = this.contributed.get(model.key) ?? [];
      return [...model.fields.slice(0, tail), ...contributed, ...model.fields.slice(tail), ...(this.extras.get(model.key) ?? [])];
    }
    return model.brief.map((name) => this.fieldOf(model, name)!);
  }

  /** Nested representations of `ids`, in the model's default ordering. */
  async loadNested(model: Model, ids: number[], ctx: RenderContext): Promise<Map<number, JsonObject>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const qb = ctx.db(`${model.table} as t`).select('t.*').whereIn('t.id', unique);
    applyOrdering(qb, model, model.ordering, this);
    const rows = await qb;
    const rendered = await renderRows(model, rows, ctx, 'nested');
    return new Map(rendered.map((obj) => [obj.id as number, obj]));
  }

  /** Fields of every model that point at `model`, for deletes. */
  dependents(model: Model): Dependent[] {
    const found: Dependent[] = [];
    for (const m of this.models.values()) {
      for (const field of m.fields) {
        if (field instanceof ForeignKeyField && field.target === model.key) found.push({ model: m, field });
        if (field instanceof GenericForeignKeyField && field.options.onDelete !== 'keep' && field.accepts(model)) found.push({ model: m, field });
      }
    }
    return found;
  }
}
