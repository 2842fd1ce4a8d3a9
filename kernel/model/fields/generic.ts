import { Field, type Column, type CommonOptions, type FieldMetadata, type WriteContext, type WriteValues, type FilterKind } from '../field.js';
import type { Model } from '../model.js';
import type { ModelRegistry } from '../registry.js';
import { ValidationError, type ErrorMap, type FieldRenderer, type JsonObject, type RenderContext, type Row } from '../types.js';

export interface GenericOptions extends CommonOptions {
  /** Only models declaring this feature may be referenced; unset: any model. */
  feature?: string;
  /** `keep`: this object outlives its target (a change record); default `cascade`. */
  onDelete?: 'cascade' | 'keep';
}

export const OBJECT_TYPE_MODEL = 'core.objecttype';

/**
 * A reference to an object of any (allowed) model: written as `<name>_type` ("app.model") plus `<name>_id`,
 * read back as both and as the nested object under `<name>`. Deleting the target deletes this object.
 */
export class GenericForeignKeyField extends Field<GenericOptions> {
  override filterKind(): FilterKind | undefined {
    return 'generic';
  }

  get typeKey(): string {
    return `${this.name}_type`;
  }

  get idKey(): string {
    return `${this.name}_id`;
  }

  get typeColumn(): string {
    return `${this.name}_type_id`;
  }

  override get keys(): string[] {
    return [this.typeKey, this.idKey];
  }

  columns(): Column[] {
    return [
      { name: this.typeColumn, type: 'integer', nullable: this.nullable, references: { model: OBJECT_TYPE_MODEL, onDelete: 'restrict' }, index: true },
      { name: this.idKey, type: 'integer', nullable: this.nullable, index: true },
    ];
  }

  override orderColumn(): string {
    return this.typeColumn;
  }

  /** Whether objects of `model` may be referenced by this field. */
  accepts(model: Model): boolean {
    return !this.options.feature || model.features.has(this.options.feature);
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const byType = new Map<number, number[]>();
    for (const row of rows) {
      const typeId = row[this.typeColumn] as number | null;
      if (typeId === null || typeId === undefined) continue;
      const ids = byType.get(typeId) ?? [];
      ids.push(row[this.idKey] as number);
      byType.set(typeId, ids);
    }
    const loaded = new Map<number, Map<number, JsonObject>>();
    for (const [typeId, ids] of byType) {
      const model = ctx.registry.find(ctx.registry.objectTypes.keyOf(typeId) ?? '');
      if (model) loaded.set(typeId, await ctx.registry.loadNested(model, ids, ctx));
    }
    return (row, out) => {
      const typeId = row[this.typeColumn] as number | null;
      const id = row[this.idKey] as number | null;
      out[this.typeKey] = typeId === null || typeId === undefined ? null : ctx.registry.objectTypes.keyOf(typeId) ?? null;
      out[this.idKey] = id ?? null;
      out[this.name] = typeId === null || typeId === undefined || id === null ? null : loaded.get(typeId)?.get(id) ?? null;
    };
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

    if (model && id !== undefined) {
      const found = id <= 2147483647 ? await ctx.db(model.table).where('id', id).first('id') : undefined;
      if (!found) errors[this.idKey] = [`Related object not found using the provided value: ${id}.`];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    out.columns[this.typeColumn] = ctx.registry.objectTypes.idOf(model!.key)!;
    out.columns[this.idKey] = id!;
  }

  override async snapshot(row: Row, ctx: RenderContext): Promise<JsonObject> {
    const typeId = row[this.typeColumn] as number | null;
    return {
      [this.typeKey]: typeId === null ? null : ctx.registry.objectTypes.keyOf(typeId) ?? null,
      [this.idKey]: (row[this.idKey] as number | null) ?? null,
    };
  }

  protected metadataType(): string {
    return 'field';
  }

  /** OPTIONS describes the two written keys. */
  describeKeys(registry: ModelRegistry): Record<string, FieldMetadata> {
    const base = { required: this.required, read_only: false };
    const choices = registry
      .all()
      .filter((m) => this.accepts(m))
      .map((m) => ({ value: m.key, display_name: `${m.app} | ${m.verboseName}` }));
    return {
      [this.typeKey]: { type: 'field', ...base, label: `${this.label} type`, choices },
      [this.idKey]: { type: 'integer', ...base, label: `${this.label} ID` },
      [this.name]: { type: 'field', required: false, read_only: true, label: this.label },
    };
  }
}
