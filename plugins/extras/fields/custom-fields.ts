import {
  ValidationError,
  type Db, type FieldRenderer, type Json, type JsonObject, type RenderContext, type Row, type WriteContext, type WriteValues,
} from '../../../kernel/index.js';
import { SideTableField } from './side-table.js';
import { cleanValue, definitionsOf } from '../custom-values.js';

export const CUSTOM_FIELD_DATA = 'extras_customfielddata';

/**
 * `custom_fields` on every model declaring the feature: every defined field of the model, null when unset.
 * Values live in one side table for all models; writes merge into the stored data, creates get defaults.
 */
export class CustomFieldsField extends SideTableField {
  constructor() {
    super('custom_fields', 'Custom fields');
  }

  private async stored(db: Db, registry: RenderContext['registry'], ids: number[]): Promise<Map<number, JsonObject>> {
    if (!ids.length) return new Map();
    const rows = (await db(CUSTOM_FIELD_DATA).select('object_id', 'data').where('object_type_id', this.typeId(registry)).whereIn('object_id', ids)) as {
      object_id: number;
      data: JsonObject;
    }[];
    return new Map(rows.map((r) => [r.object_id, r.data]));
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const defs = await definitionsOf(ctx.db, this.model.key);
    const data = defs.length ? await this.stored(ctx.db, ctx.registry, rows.map((r) => r.id as number)) : new Map<number, JsonObject>();
    // Object-type fields render nested objects: one query per related model.
    const nested = new Map<string, Map<number, JsonObject>>();
    for (const def of defs.filter((d) => d.type === 'object' || d.type === 'multiobject')) {
      const ids = [...data.values()].flatMap((d) => (d[def.name] === null || d[def.name] === undefined ? [] : ([] as number[]).concat(d[def.name] as number)));
      nested.set(def.name, await ctx.registry.loadNested(ctx.registry.get(def.related_object_type!), ids, ctx));
    }
    return (row, out) => {
      const stored = data.get(row.id as number) ?? {};
      const values: JsonObject = {};
      for (const def of defs) {
        const value = stored[def.name] ?? null;
        const objects = nested.get(def.name);
        if (objects && value !== null) values[def.name] = Array.isArray(value) ? value.map((id) => objects.get(id as number) ?? null) : objects.get(value as number) ?? null;
        else values[def.name] = value;
      }
      out.custom_fields = values;
    };
  }

  override createDefault(): Json {
    return {};
  }

  async parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> {
    const given = body.custom_fields;
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw ValidationError.of('custom_fields', 'Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.');
    }
    const defs = await definitionsOf(ctx.db, this.model.key);
    const id = ctx.instance?.id as number | undefined;
    const data: JsonObject = id === undefined ? {} : { ...((await this.stored(ctx.db, ctx.registry, [id])).get(id) ?? {}) };
    const problems: string[] = [];
    for (const def of defs) {
      const present = Object.prototype.hasOwnProperty.call(given, def.name);
      if (!present && id === undefined && def.default !== null && def.default !== undefined) data[def.name] = def.default as Json;
      if (!present) continue;
      try {
        data[def.name] = (await cleanValue(def, (given as Record<string, unknown>)[def.name], ctx.db, ctx.registry)) as Json;
      } catch (err) {
        if (typeof err !== 'string') throw err;
        problems.push(`Invalid value for custom field '${def.name}': ${err}`);
      }
    }
    for (const def of defs) {
      if (def.required && (data[def.name] === null || data[def.name] === undefined)) problems.push(`Missing required custom field '${def.name}'.`);
    }
    const typeId = this.typeId(ctx.registry);
    for (const def of defs.filter((d) => d.unique && data[d.name] !== null && data[d.name] !== undefined)) {
      const clash = await ctx.db(CUSTOM_FIELD_DATA)
        .where('object_type_id', typeId)
        .whereRaw('data -> ? = ?::jsonb', [def.name, JSON.stringify(data[def.name])])
        .modify((q) => (id === undefined ? q : q.whereNot('object_id', id)))
        .first('object_id');
      if (clash) problems.push(`Custom field '${def.name}' must have a unique value.`);
    }
    if (problems.length) throw new ValidationError({ __all__: problems });
    out.after.push(async (objectId, db) => {
      await db(CUSTOM_FIELD_DATA)
        .insert({ object_type_id: typeId, object_id: objectId, data: JSON.stringify(data) })
        .onConflict(['object_type_id', 'object_id'])
        .merge();
    });
  }

  override async snapshot(row: Row, ctx: RenderContext): Promise<JsonObject> {
    return { custom_fields: (await this.stored(ctx.db, ctx.registry, [row.id as number])).get(row.id as number) ?? {} };
  }

  override async cleanup(ids: number[], ctx: RenderContext): Promise<void> {
    await ctx.db(CUSTOM_FIELD_DATA).where('object_type_id', this.typeId(ctx.registry)).whereIn('object_id', ids).delete();
  }

}
