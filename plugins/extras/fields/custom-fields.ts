import {
  ValidationError,
  type Db, type FieldRenderer, type Json, type JsonObject, type ModelRegistry, type RenderContext, type Row, type StoreEntry, type ValueSchema,
  type WriteContext, type WriteScope, type WriteValues,
} from '../../../kernel/index.js';
import { SideTableField } from './side-table.js';
import { cleanValue, definitionsOf } from '../custom-values.js';

export const CUSTOM_FIELD_DATA = 'extras_customfielddata';

/** A unique custom field value one item writes; `n` keeps the asks of different items apart. */
interface UniqueAsk {
  name: string;
  value: string;
  id: number | null;
  n: number;
}

let asks = 0;

/**
 * `custom_fields` on every model declaring the feature: every defined field of the model, null when unset.
 * Values live in one side table for all models; writes merge into the stored data, creates get defaults.
 * Definitions are read once per request, stored data and unique checks once per write.
 */
export class CustomFieldsField extends SideTableField {
  constructor() {
    super('Custom fields');
  }

  private async stored(db: Db, registry: ModelRegistry, ids: number[]): Promise<Map<number, JsonObject>> {
    if (!ids.length) return new Map();
    const rows = (await db(CUSTOM_FIELD_DATA).select('object_id', 'data').where('object_type_id', this.typeId(registry)).whereIn('object_id', ids)) as {
      object_id: number;
      data: JsonObject;
    }[];
    return new Map(rows.map((r) => [r.object_id, r.data]));
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const defs = await definitionsOf(ctx, this.model.key);
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

  protected schema(): ValueSchema {
    return { type: 'object' };
  }

  override createDefault(): Json {
    return {};
  }

  async parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> {
    const given = body.custom_fields;
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw ValidationError.of('custom_fields', 'Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.');
    }
    const defs = await definitionsOf(ctx, this.model.key);
    const id = ctx.instance?.id as number | undefined;
    const current = id === undefined ? undefined : await ctx.batch(`extras.custom-field-data:${this.model.key}`, id, async (ids: number[]) => {
      const stored = await this.stored(ctx.db, ctx.registry, ids);
      return ids.map((i) => stored.get(i) ?? {});
    });
    const data: JsonObject = { ...(current ?? {}) };
    const problems: string[] = [];
    for (const def of defs) {
      const present = Object.prototype.hasOwnProperty.call(given, def.name);
      if (!present && id === undefined && def.default !== null && def.default !== undefined) data[def.name] = def.default as Json;
      if (!present) continue;
      try {
        data[def.name] = (await cleanValue(def, (given as Record<string, unknown>)[def.name], ctx)) as Json;
      } catch (err) {
        if (typeof err !== 'string') throw err;
        problems.push(`Invalid value for custom field '${def.name}': ${err}`);
      }
    }
    for (const def of defs) {
      if (def.required && (data[def.name] === null || data[def.name] === undefined)) problems.push(`Missing required custom field '${def.name}'.`);
    }
    const unique = defs.filter((d) => d.unique && data[d.name] !== null && data[d.name] !== undefined);
    const taken = await Promise.all(unique.map((def) => this.isTaken(ctx, { name: def.name, value: JSON.stringify(data[def.name]), id: id ?? null, n: asks++ })));
    unique.forEach((def, i) => taken[i] && problems.push(`Custom field '${def.name}' must have a unique value.`));
    if (problems.length) throw new ValidationError({ __all__: problems });
    out.values.custom_fields = data;
  }

  /** Whether another object holds the value, stored or written earlier in the same write: one query per write. */
  private isTaken(ctx: WriteContext, ask: UniqueAsk): Promise<boolean> {
    return ctx.batch(`extras.custom-field-unique:${this.model.key}`, ask, async (list: UniqueAsk[]) => {
      const qb = ctx.db(CUSTOM_FIELD_DATA).select('object_id', 'data').where('object_type_id', this.typeId(ctx.registry));
      qb.where((q) => list.forEach((a) => q.orWhereRaw('data -> ? = ?::jsonb', [a.name, a.value])));
      const rows = (await qb) as { object_id: number; data: JsonObject }[];
      const claimed = new Set<string>();
      return list.map((a) => {
        const key = JSON.stringify([a.name, a.value]);
        const stored = rows.some((r) => r.object_id !== a.id && JSON.stringify(r.data[a.name]) === a.value);
        const earlier = claimed.has(key);
        claimed.add(key);
        return stored || earlier;
      });
    });
  }

  override async store(entries: StoreEntry[], scope: WriteScope): Promise<void> {
    const typeId = this.typeId(scope.registry);
    await scope.db(CUSTOM_FIELD_DATA)
      .insert(entries.map((e) => ({ object_type_id: typeId, object_id: e.id, data: JSON.stringify(e.value) })))
      .onConflict(['object_type_id', 'object_id'])
      .merge();
  }

  override async snapshot(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const stored = await this.stored(ctx.db, ctx.registry, rows.map((r) => r.id as number));
    return (row, out) => {
      out.custom_fields = stored.get(row.id as number) ?? {};
    };
  }

  override async cleanup(ids: number[], ctx: RenderContext): Promise<void> {
    await ctx.db(CUSTOM_FIELD_DATA).where('object_type_id', this.typeId(ctx.registry)).whereIn('object_id', ids).delete();
  }
}
