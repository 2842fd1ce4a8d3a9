import type { Knex } from '@mikro-orm/knex';
import type { QueryFilter } from '../../filters/builders.js';
import type { Comparison } from '../../filters/compile.js';
import { FilterError, ParamError } from '../../filters/errors.js';
import { not, type FilterNode } from '../../filters/tree.js';
import { parseWholeNumber } from '../../filters/values.js';
import type { WriteContext } from '../../write/context.js';
import type { PropertyDescription, ValueSchema } from '../description.js';
import { Field, type Column, type CommonOptions, type ObjectRef, type Reference, type WriteValues } from '../field.js';
import type { Model } from '../model.js';
import type { OrderStep } from '../ordering.js';
import type { ModelRegistry } from '../registry.js';
import { relateByColumn, type Relate, type Walk } from '../walk.js';
import { ValidationError, type ErrorMap, type FieldRenderer, type JsonObject, type RenderContext, type RenderMode, type Row } from '../../base/types.js';

export interface GenericOptions extends CommonOptions {
  /** Only models declaring this feature may be referenced; unset: any model. */
  feature?: string;
  /** Only these models (`app.model`) may be referenced (a prefix's scope: region, site group, site, location). */
  models?: string[];
  /** `keep`: this object outlives its target (a change record); default `cascade`. */
  onDelete?: 'cascade' | 'keep';
  /** The key the nested object reads under, when it is not the field's name (image attachments read `parent`). */
  readAs?: string;
  /** Every key of the nested object, by its model, where NetBox nests another form than the brief one. */
  nested?: Record<string, string[]>;
  /** The list of this model's objects each target offers (GraphQL's `ip_addresses` on an interface). */
  related?: string;
  /** GraphQL's name of the union of the targets (`IPAddressAssignmentType`); default `<Class><Field>Type`. */
  union?: string;
}

export const OBJECT_TYPE_MODEL = 'core.objecttype';

/**
 * A reference to an object of any (allowed) model: written as `<name>_type` ("app.model") plus `<name>_id`,
 * read back as both and as the nested object under `<name>`. Deleting the target deletes this object.
 */
export class GenericForeignKeyField extends Field<GenericOptions> {
  get typeKey(): string {
    return `${this.name}_type`;
  }

  get idKey(): string {
    return `${this.name}_id`;
  }

  get typeColumn(): string {
    return `${this.name}_type_id`;
  }

  private get readKey(): string {
    return this.options.readAs ?? this.name;
  }

  protected override writtenKeys(): string[] {
    return [this.typeKey, this.idKey];
  }

  columns(): Column[] {
    return [
      { name: this.typeColumn, type: 'integer', nullable: this.nullable, references: { model: OBJECT_TYPE_MODEL, onDelete: 'restrict' }, index: true },
      { name: this.idKey, type: 'integer', nullable: this.nullable, index: true },
    ];
  }

  /** Whether objects of `model` may be referenced by this field. */
  accepts(model: Model): boolean {
    const { feature, models } = this.options;
    return (!feature || model.features.has(feature)) && (!models || models.includes(model.key));
  }

  override verify(registry: ModelRegistry): void {
    for (const [key, fields] of Object.entries(this.options.nested ?? {})) {
      const model = registry.find(key);
      const unknown = model ? fields.filter((name) => !registry.fieldOf(model, name)) : [];
      if (unknown.length) throw new Error(`${this.model.key}.${this.name}: ${key} has no field ${unknown.join(', ')}`);
    }
  }

  override references(target: Model, registry: ModelRegistry): Reference | undefined {
    const typeId = registry.objectTypes.idOf(target.key);
    if (this.options.onDelete === 'keep' || !this.accepts(target) || typeId === undefined) return undefined;
    return { onDelete: 'cascade', select: (db, ids) => db(this.model.table).select('*').where(this.typeColumn, typeId).whereIn(this.idKey, ids) };
  }

  override pointsAt(row: Row, registry: ModelRegistry): ObjectRef | null {
    const key = registry.objectTypes.keyOf(row[this.typeColumn] as number);
    return key ? { model: key, id: row[this.idKey] as number } : null;
  }

  override walk(key: string, registry: ModelRegistry): Walk | undefined {
    if (key !== this.readKey) return undefined;
    const targets = registry.all().filter((m) => this.accepts(m)).map((m) => m.key);
    return { targets, many: false, union: this.options.union, refs: () => (row) => this.pointsAt(row, registry) };
  }

  override referring(target: Model, registry: ModelRegistry): Relate | undefined {
    if (!this.accepts(target)) return undefined;
    const { typeColumn, idKey } = this;
    return relateByColumn(this.name, idKey, (qb, alias, parent, bindings) => {
      // Read when the query is built: object types are registered once the database is migrated.
      const typeId = registry.objectTypes.idOf(target.key) ?? 0;
      qb.where(`${alias}.${typeColumn}`, typeId).whereRaw(`?? = ${parent}`, [`${alias}.${idKey}`, ...bindings]);
    });
  }

  override get related(): string | undefined {
    return this.options.related;
  }

  async prepare(rows: Row[], ctx: RenderContext, _mode: RenderMode, wanted?: (key: string) => boolean): Promise<FieldRenderer> {
    const byType = new Map<number, number[]>();
    // The nested objects are the costly part: not loaded when left out.
    for (const row of wanted?.(this.readKey) === false ? [] : rows) {
      const typeId = row[this.typeColumn] as number | null;
      if (typeId === null || typeId === undefined) continue;
      const ids = byType.get(typeId) ?? [];
      ids.push(row[this.idKey] as number);
      byType.set(typeId, ids);
    }
    const loaded = new Map<number, Map<number, JsonObject>>();
    for (const [typeId, ids] of byType) {
      const model = ctx.registry.find(ctx.registry.objectTypes.keyOf(typeId) ?? '');
      if (!model) continue;
      // Objects the reader may not view stay null: their type and id show, nothing of them.
      const viewable = ctx.viewable ? await ctx.viewable(model, ids) : undefined;
      loaded.set(typeId, await ctx.registry.nestedById(model, viewable ? ids.filter((id) => viewable.has(id)) : ids, ctx, this.options.nested?.[model.key]));
    }
    return (row, out) => {
      const typeId = row[this.typeColumn] as number | null;
      const id = row[this.idKey] as number | null;
      out[this.typeKey] = typeId === null || typeId === undefined ? null : ctx.registry.objectTypes.keyOf(typeId) ?? null;
      out[this.idKey] = id ?? null;
      out[this.readKey] = typeId === null || typeId === undefined || id === null ? null : loaded.get(typeId)?.get(id) ?? null;
    };
  }

  /** The two written keys and the nested object read back. */
  override describe(registry: ModelRegistry): PropertyDescription[] {
    const choices = registry
      .all()
      .filter((m) => this.accepts(m))
      .map((m) => ({ value: m.key, label: `${m.app} | ${m.verboseName}` }));
    const written = { required: this.required, readOnly: false, nullable: this.nullable };
    return [
      { key: this.typeKey, label: `${this.label} type`, type: 'string', choices, ...written },
      { key: this.idKey, label: `${this.label} ID`, type: 'integer', ...written },
      { key: this.readKey, label: this.label, type: 'object', required: false, readOnly: true, nullable: true },
    ];
  }

  protected schema(): ValueSchema {
    return { type: 'object' };
  }

  async parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> {
    const errors: ErrorMap = {};
    const has = (k: string) => Object.prototype.hasOwnProperty.call(body, k);
    const typeValue = has(this.typeKey) ? body[this.typeKey] : ctx.instance ? ctx.registry.objectTypes.keyOf(ctx.instance[this.typeColumn] as number) ?? null : undefined;
    const idValue = has(this.idKey) ? body[this.idKey] : ctx.instance ? ctx.instance[this.idKey] : undefined;

    if ((typeValue === null || typeValue === undefined) && (idValue === null || idValue === undefined)) {
      if (this.nullable) {
        out.columns[this.typeColumn] = null;
        out.columns[this.idKey] = null;
        out.values[this.name] = null;
        return;
      }
      const message = typeValue === null || idValue === null ? 'This field may not be null.' : 'This field is required.';
      throw new ValidationError({ [this.typeKey]: [message], [this.idKey]: [message] });
    }

    let model: Model | undefined;
    if (typeValue === null || typeValue === undefined) {
      errors[this.typeKey] = ['This field may not be null.'];
    } else if (typeof typeValue !== 'string' || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(typeValue)) {
      errors[this.typeKey] = ["Invalid value. Specify a content type as '<app_label>.<model_name>'."];
    } else {
      model = ctx.registry.find(typeValue);
      if (!model || !this.accepts(model) || ctx.registry.objectTypes.idOf(typeValue) === undefined) {
        errors[this.typeKey] = [`Invalid content type: ${typeValue}`];
        model = undefined;
      }
    }

    let id: number | undefined;
    if (idValue === null || idValue === undefined) {
      errors[this.idKey] = ['This field may not be null.'];
    } else if ((typeof idValue === 'number' && Number.isInteger(idValue)) || (typeof idValue === 'string' && /^\d+$/.test(idValue))) {
      id = Number(idValue);
    } else {
      errors[this.idKey] = ['A valid integer is required.'];
    }

    // An object the writer may not view is, to them, one that does not exist.
    if (model && id !== undefined && !(await ctx.exists(model, id, { viewable: true }))) {
      errors[this.idKey] = [`Related object not found using the provided value: ${id}.`];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    out.columns[this.typeColumn] = ctx.registry.objectTypes.idOf(model!.key)!;
    out.columns[this.idKey] = id!;
    out.values[this.name] = { model: model!.key, id: id! };
  }

  override snapshot(_rows: Row[], ctx: RenderContext): FieldRenderer {
    return (row, out) => {
      const typeId = row[this.typeColumn] as number | null;
      out[this.typeKey] = typeId === null ? null : ctx.registry.objectTypes.keyOf(typeId) ?? null;
      out[this.idKey] = (row[this.idKey] as number | null) ?? null;
    };
  }

  /** `<name>_type` (`app.model`), `<name>_type_id` and `<name>_id`. */
  override filters(): Record<string, QueryFilter> {
    const column = (name: string, values: () => unknown[]): FilterNode => ({
      op: 'sql',
      condition: (qb, alias) => {
        qb.whereIn(`${alias}.${name}`, values() as Knex.Value[]);
      },
    });
    const numeric = (name: string): QueryFilter => ({
      suffixes: ['n'],
      build: (suffix, values) => {
        const ids = values.map(parseWholeNumber);
        const node = column(name, () => ids);
        return suffix === 'n' ? not(node) : node;
      },
    });
    return {
      [this.typeKey]: {
        suffixes: ['n'],
        build: (suffix, values, ctx) => {
          const typeIds = values.map((v) => {
            const id = ctx.registry.objectTypes.idOf(v);
            if (id === undefined) throw new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);
            return id;
          });
          const node = column(this.typeColumn, () => typeIds);
          return suffix === 'n' ? not(node) : node;
        },
      },
      [`${this.typeKey}_id`]: numeric(this.typeColumn),
      [this.idKey]: numeric(this.idKey),
    };
  }

  /**
   * Whether anything is assigned; or, with a path beyond the field (`member__cid`), whether the object is one of
   * the targets having that field and matches on it. Which object it is goes through `<name>_type` and `<name>_id`.
   */
  override condition(c: Comparison): void {
    if (c.rest.length) {
      const { registry } = c.scope;
      const targets = registry.all().filter((m) => this.accepts(m) && registry.fieldOf(m, c.rest[0]));
      if (!targets.length) throw new FilterError(`No object '${this.name}' may point at has a field '${c.rest[0]}'.`);
      c.qb.where((any) => {
        for (const target of targets) {
          any.orWhere((q) => void q.where(`${c.alias}.${this.typeColumn}`, registry.objectTypes.idOf(target.key) ?? 0).whereIn(`${c.alias}.${this.idKey}`, c.matching(target, c.rest, c.lookup, c.value)));
        }
      });
      return;
    }
    if (c.lookup !== 'isnull') throw new FilterError(`'${this.name}' is filtered by its _type and _id.`);
    if (c.value) c.qb.whereNull(`${c.alias}.${this.idKey}`);
    else c.qb.whereNotNull(`${c.alias}.${this.idKey}`);
  }

  override orderColumn(): undefined {
    return undefined;
  }

  /** By type, then id (NetBox orders by `<name>_type`, `<name>_id`). */
  override order(step: OrderStep): void {
    if (step.rest.length) return;
    for (const column of [this.typeColumn, this.idKey]) step.qb.orderBy(`${step.alias}.${column}`, step.desc ? 'desc' : 'asc');
  }
}
