import {
  ValidationError, insertAll, writeBehind,
  type CheckEntry, type ErrorMap, type FieldRenderer, type Json, type JsonObject, type RenderContext, type Row,
  type StoreEntry, type ValueSchema, type WriteContext, type WriteScope, type WriteValues,
} from 'patchbay';
import { SideTableField } from './side-table.js';
import { cleanValue, definitionsOf } from '../custom-values.js';

export const CUSTOM_FIELD_DATA = 'extras_customfielddata';

/** A JSON value with its objects' keys in jsonb's order (shorter first, then by their UTF-8 bytes). */
function jsonbOrdered<T extends Json>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => jsonbOrdered(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return Object.fromEntries(keys.map((k) => [k, jsonbOrdered((value as JsonObject)[k])])) as T;
}

/**
 * `custom_fields` on every model declaring the feature: every defined field of the model, null when unset.
 * Values live in one side table for all models; writes merge into the stored data, creates get defaults.
 * Definitions are read once per request, stored data and unique checks once per write.
 */
export class CustomFieldsField extends SideTableField {
  constructor() {
    super('Custom fields');
  }

  /** Where a write remembers the data it stored for object `id`. */
  private storedKey(id: number): string {
    return `extras.custom-field-data:${this.model.key}:${id}`;
  }

  /** The stored data of objects `ids`: what this write stored for them, or else read. */
  private async stored(ctx: Pick<RenderContext, 'db' | 'registry' | 'memo'>, ids: number[]): Promise<Map<number, JsonObject>> {
    const written = ids.map((id) => ctx.memo.recall<JsonObject>(this.storedKey(id)));
    if (written.every(Boolean)) return new Map(ids.map((id, n) => [id, written[n]!]));
    const { db, registry } = ctx;
    const rows = (await db(CUSTOM_FIELD_DATA).select('object_id', 'data').where('object_type_id', this.typeId(registry)).whereIn('object_id', ids)) as {
      object_id: number;
      data: JsonObject;
    }[];
    return new Map(rows.map((r) => [r.object_id, r.data]));
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const defs = await definitionsOf(ctx, this.model.key);
    const data = defs.length ? await this.stored(ctx, rows.map((r) => r.id as number)) : new Map<number, JsonObject>();
    // Object-type fields render nested objects: one query per related model.
    const nested = new Map<string, Map<number, JsonObject>>();
    for (const def of defs.filter((d) => d.type === 'object' || d.type === 'multiobject')) {
      const target = ctx.registry.get(def.related_object_type!);
      const ids = [...data.values()].flatMap((d) => (d[def.name] === null || d[def.name] === undefined ? [] : ([] as number[]).concat(d[def.name] as number)));
      // Objects the reader may not view render as null.
      const viewable = ctx.viewable ? await ctx.viewable(target, ids) : undefined;
      nested.set(def.name, await ctx.registry.nestedById(target, viewable ? ids.filter((id) => viewable.has(id)) : ids, ctx));
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
      const stored = await this.stored(ctx, ids);
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
    if (problems.length) throw new ValidationError({ __all__: problems });
    out.values.custom_fields = data;
  }

  /**
   * Unique custom fields, for a whole write at once: a value is taken when an object outside the write holds
   * it, or an earlier object of the write gives it (the write's objects are judged by their new values).
   */
  override async check(entries: CheckEntry[], scope: WriteScope): Promise<(ErrorMap | undefined)[]> {
    const unique = (await definitionsOf(scope, this.model.key)).filter((d) => d.unique);
    const valueOf = (e: CheckEntry, name: string) => (e.value as JsonObject)[name];
    const asked = unique.filter((d) => entries.some((e) => valueOf(e, d.name) !== null && valueOf(e, d.name) !== undefined));
    if (!asked.length) return entries.map(() => undefined);
    // No database index backs these values: concurrent writes of the same fields take turns (in a fixed order,
    // so they cannot deadlock) until they commit, and each check then sees what the ones before it stored.
    const locks = asked.map((d) => `extras.custom-field-unique:${this.model.key}:${d.name}`).sort();
    await scope.db.raw('select pg_advisory_xact_lock(hashtext(k)) from unnest(?::text[]) as k order by k', [locks]);
    const qb = scope.db(CUSTOM_FIELD_DATA).select('object_id', 'data').where('object_type_id', this.typeId(scope.registry));
    qb.where((q) => {
      for (const def of asked) {
        const values = entries.map((e) => valueOf(e, def.name)).filter((v) => v !== null && v !== undefined).map((v) => JSON.stringify(v));
        q.orWhereRaw('data -> ? = any(?::jsonb[])', [def.name, values]);
      }
    });
    const written = new Set(entries.flatMap((e) => (e.id === undefined ? [] : [e.id])));
    const stored = ((await qb) as { object_id: number; data: JsonObject }[]).filter((r) => !written.has(r.object_id));
    const taken = new Map(asked.map((d) => [d.name, new Set(stored.map((r) => JSON.stringify(r.data[d.name])))]));
    return entries.map((e) => {
      const problems: string[] = [];
      for (const def of asked) {
        const value = valueOf(e, def.name);
        if (value === null || value === undefined) continue;
        const key = JSON.stringify(value);
        if (taken.get(def.name)!.has(key)) problems.push(`Custom field '${def.name}' must have a unique value.`);
        taken.get(def.name)!.add(key);
      }
      return problems.length ? { __all__: problems } : undefined;
    });
  }

  override async store(entries: StoreEntry[], scope: WriteScope): Promise<void> {
    const typeId = this.typeId(scope.registry);
    // A new object without values needs no row: a missing row reads, filters and snapshots as `{}`.
    const kept = scope.mode === 'create' ? entries.filter((e) => Object.keys(e.value as JsonObject).length) : entries;
    const rows = kept.map((e) => ({ object_type_id: typeId, object_id: e.id, data: e.value }));
    // Written behind, as the write remembers the values it stores.
    await writeBehind(scope.db, insertAll(scope.db, CUSTOM_FIELD_DATA, rows, { upsert: ['object_type_id', 'object_id'] }));
    // As jsonb gives it back: keys ordered by length, then bytes.
    for (const e of entries) scope.memo.remember(this.storedKey(e.id), jsonbOrdered(e.value as JsonObject));
  }

  override async snapshot(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const stored = await this.stored(ctx, rows.map((r) => r.id as number));
    return (row, out) => {
      out.custom_fields = stored.get(row.id as number) ?? {};
    };
  }

  override async cleanup(ids: number[], ctx: RenderContext): Promise<void> {
    await ctx.db(CUSTOM_FIELD_DATA).where('object_type_id', this.typeId(ctx.registry)).whereIn('object_id', ids).delete();
  }
}
