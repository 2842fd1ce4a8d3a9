import {
  Field, ValidationError, appendTo, isPlainObject,
  type ModelRegistry, type Walk, type Column, type FieldRenderer, type JsonObject, type ObjectRef, type RenderContext, type Row, type StoreEntry, type ValueSchema, type WriteContext, type WriteScope, type WriteValues,
} from 'patchbay';
import { cableRole } from '../cabled.js';
import { cabledModels } from './link-peers.js';
import { nestedNodes } from '../nested.js';
import { nodeOf } from '../nodes.js';
import { replaceEnds, storedEnds, type EndWrite } from '../terminations.js';

/** How often each object is named as a termination by the cables of one write (an object takes one cable). */
export const claimsOf = (ctx: Pick<WriteScope, 'memo'>) => ctx.memo.get('dcim.cable:claims', async () => new Map<string, number>());

/**
 * The termination rows of cables `ids`, each cable's in id order: what the write stored for them, or one query for
 * both ends (and for the write's snapshots, its re-trace and its answer; the session's memo is cleared when a write
 * stores).
 */
export function cableEnds(ids: number[], ctx: Pick<RenderContext, 'db' | 'memo'>): Promise<Row[]> {
  if (!ids.length) return Promise.resolve([]);
  const written = ids.map((id) => ctx.memo.recall<Row[]>(storedEnds(id)));
  if (written.every(Boolean)) return Promise.resolve(written.flat() as Row[]);
  return ctx.memo.get(`dcim.cable:ends:${ids.join(',')}`, async () => (await ctx.db('dcim_cabletermination').select('*').whereRaw('cable_id = any(?)', [ids]).orderBy('id')) as Row[]);
}

/**
 * `a_terminations` / `b_terminations` of a cable: the objects at one end, read as `{object_type, object_id,
 * object}` and written as `{object_type, object_id}` (or `object` attributes instead of the id), all of one type.
 * Stored as cable termination rows, with the objects' `cable` and `cable_end` kept in step.
 */
export class CableEndField extends Field {
  constructor(readonly end: 'A' | 'B') {
    super({ required: false });
  }

  columns(): Column[] {
    return [];
  }

  protected schema(): ValueSchema {
    return { type: 'array', items: { type: 'object' } };
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = rows.map((r) => r.id as number);
    const all = await cableEnds(ids, ctx);
    const refsOf = (ends: Row[]) => ends.flatMap((e) => {
      const model = ctx.registry.objectTypes.keyOf(e.termination_type_id as number);
      return model ? [{ cable: e.cable_id as number, model, id: e.termination_id as number }] : [];
    });
    const byCable = new Map<number, { model: string; id: number }[]>();
    for (const ref of refsOf(all.filter((e) => e.cable_end === this.end))) appendTo(byCable, ref.cable, ref);
    // And their objects: one query per model for both ends.
    const nested = await ctx.memo.get(`dcim.cable:end-objects:${ids.join(',')}`, () => nestedNodes(refsOf(all).map((r) => nodeOf(r.model, r.id)), ctx));
    return (row, out) => {
      out[this.name] = (byCable.get(row.id as number) ?? [])
        .map((r): JsonObject => ({ object_type: r.model, object_id: r.id, object: nested.get(nodeOf(r.model, r.id)) ?? null }));
    };
  }

  /** The objects at this end, as a union of the cabled models' types (GraphQL's `CableTerminationTerminationType`). */
  override walk(key: string, registry: ModelRegistry): Walk | undefined {
    if (key !== this.name) return undefined;
    return {
      targets: cabledModels(registry),
      many: true,
      union: 'CableTerminationTerminationType',
      refs: async (rows, ctx) => {
        const ids = rows.map((r) => r.id as number);
        const ends = (await cableEnds(ids, ctx)).filter((e) => e.cable_end === this.end);
        const byCable = new Map<number, ObjectRef[]>();
        for (const e of ends) {
          const model = ctx.registry.objectTypes.keyOf(e.termination_type_id as number);
          if (model) appendTo(byCable, e.cable_id as number, { model, id: e.termination_id as number });
        }
        return (row) => byCable.get(row.id as number) ?? [];
      },
    };
  }

  async parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> {
    const value = body[this.name];
    if (!Array.isArray(value)) throw ValidationError.of(this.name, `Expected a list of items but got type "${value === null ? 'NoneType' : typeof value === 'string' ? 'str' : typeof value}".`);
    const refs: ObjectRef[] = [];
    for (let n = 0; n < value.length; n++) {
      const item: unknown = value[n];
      if (!isPlainObject(item)) throw ValidationError.of(this.name, `Item ${n}: expected a dictionary with object_type and object_id.`);
      const type = item.object_type;
      const model = typeof type === 'string' && cableRole(ctx.registry, type) ? ctx.registry.find(type) : undefined;
      if (!model) throw ValidationError.of(this.name, `Item ${n}: invalid object_type ${JSON.stringify(type ?? null)}; cables attach to ${this.accepted(ctx)}.`);
      const reference = item.object_id ?? item.object;
      if (reference === undefined) throw ValidationError.of(this.name, `Item ${n}: object_id is required.`);
      const id = await ctx.resolve(model, reference, this.name, { viewable: true, lock: true });
      if (refs.length && refs[0].model !== model.key) throw ValidationError.of(this.name, 'Cannot connect different termination types to same end of cable.');
      if (refs.some((r) => r.id === id)) throw ValidationError.of(this.name, `${model.key} ${id} is listed more than once.`);
      refs.push({ model: model.key, id });
    }
    const claims = await claimsOf(ctx);
    for (const r of refs) {
      const node = nodeOf(r.model, r.id);
      claims.set(node, (claims.get(node) ?? 0) + 1);
    }
    out.values[this.name] = refs;
  }

  private accepted(ctx: WriteContext): string {
    return ctx.registry.all().filter((m) => cableRole(ctx.registry, m.key)).map((m) => m.key).join(', ');
  }

  /** Both ends of a write are stored together (the session stores its fields side by side): one round of statements. */
  override async store(entries: StoreEntry[], scope: WriteScope): Promise<void> {
    const writes = entries.map((e): EndWrite => ({ cable: e.id, end: this.end, refs: e.value as ObjectRef[] }));
    await scope.batch('dcim.cable:store-ends', writes, async (ends: EndWrite[][]) => {
      await replaceEnds(scope, ends.flat(), scope.mode === 'create');
      return ends.map(() => undefined);
    });
  }

  /** The change log records the ids at each end, as NetBox's cables do. */
  override async snapshot(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const byCable = new Map<number, number[]>();
    for (const e of await cableEnds(rows.map((r) => r.id as number), ctx)) if (e.cable_end === this.end) appendTo(byCable, e.cable_id as number, e.termination_id as number);
    return (row, out) => {
      out[this.name] = [...(byCable.get(row.id as number) ?? [])].sort((a, b) => a - b);
    };
  }
}
