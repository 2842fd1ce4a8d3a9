import {
  StringField, ValidationError, appendTo, defineModel, f, loadDisplays,
  type ExpressionIndex, type ObjectRef, type Row, type SavedItem, type ValidateContext, type WriteSession,
} from 'patchbay';
import { cableEnds, claimsOf, CableEndField } from '../cabling/fields/cable-ends.js';
import { idsByModel, nodeOf, type PathNode } from '../cabling/nodes.js';
import { isPathEndpoint } from '../cabling/cabled.js';
import { retraceIn } from '../cabling/paths.js';
import { checkFree, compatible, lockedRows, takenProblem } from '../cabling/rules.js';
import { attach, detach, endOf } from '../cabling/terminations.js';
import { CableEnd, CableLengthUnit, CableType, LinkStatus } from '../choices/index.js';

/** The model of the objects at one end of a stored cable (undefined when that end is empty). */
async function endType(ctx: ValidateContext, cable: number, end: 'A' | 'B'): Promise<string | undefined> {
  const rows = await ctx.batch('dcim.cable:ends', cable, async (ids: number[]) => {
    const found = (await ctx.db('dcim_cabletermination').select('cable_id', 'cable_end', 'termination_type_id').whereRaw('cable_id = any(?)', [ids])) as Row[];
    const byCable = new Map<number, Row[]>();
    for (const row of found) appendTo(byCable, row.cable_id as number, row);
    return ids.map((id) => byCable.get(id) ?? []);
  });
  const row = rows.find((r) => r.cable_end === end);
  return row ? ctx.registry.objectTypes.keyOf(row.termination_type_id as number) : undefined;
}

/** The model of the objects one end of a written cable is to have: those `given`, else those it has (`cable`, stored). */
function termsType(given: ObjectRef[] | undefined, ctx: ValidateContext, cable: number | undefined, end: 'A' | 'B'): Promise<string | undefined> | string | undefined {
  if (given) return given[0]?.model;
  return cable === undefined ? undefined : endType(ctx, cable, end);
}

/**
 * Re-traces what the written cables touch: the cables themselves and the objects now at their ends. New cables
 * between endpoints (interfaces, console and power ports) are on no stored path yet, nor are their ends, which
 * validation found free: no path is read.
 */
async function retraceCables(items: SavedItem[], session: WriteSession): Promise<void> {
  if (!items.length) return;
  const cables = items.map((i) => i.row.id as number);
  const ends = (await cableEnds(cables, session)).flatMap((e) => endOf(e, session.registry) ?? []);
  const touched: PathNode[] = [...cables.map((id) => nodeOf('dcim.cable', id)), ...ends.map((e) => nodeOf(e.model, e.id))];
  const unpathed = items.every((i) => i.action === 'create') && ends.every((e) => isPathEndpoint(session.registry, e.model));
  await retraceIn(session, touched, unpathed);
}

const changesPaths = (item: SavedItem) =>
  item.action === 'create' || 'a_terminations' in item.values || 'b_terminations' in item.values || item.instance?.status !== item.row.status;

/** A cable between objects of one kind at each end (NetBox's Cable), written with its terminations. */
export const Cable = defineModel('dcim.cable', {
  path: 'cables',
  verboseName: 'cable',
  fields: {
    type: f.choice(CableType, { nullable: true }),
    a_terminations: new CableEndField('A'),
    b_terminations: new CableEndField('B'),
    status: f.choice(LinkStatus, { default: 'connected' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, onDelete: 'protect', related: 'cables' }),
    label: f.string({ max: 100, blank: true }),
    color: f.color({ blank: true }),
    length: f.decimal({ digits: 8, places: 2, min: 0, nullable: true }),
    length_unit: f.choice(CableLengthUnit, { nullable: true }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['label', 'description'],
  display: (row) => (row.label ? String(row.label) : `#${row.id}`),
  displayUses: ['label'],
  ordering: ['id'],
  search: ['label', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
  async validate(row, ctx) {
    if (row.length !== null && row.length !== undefined && !row.length_unit) throw ValidationError.of('length_unit', 'You must specify a unit when setting a cable length');
    const id = ctx.instance?.id as number | undefined;
    const given = { A: ctx.values.a_terminations as ObjectRef[] | undefined, B: ctx.values.b_terminations as ObjectRef[] | undefined };
    const key = { A: 'a_terminations', B: 'b_terminations' } as const;
    if (id === undefined) {
      const missing = (['A', 'B'] as const).filter((end) => !given[end]?.length);
      if (missing.length) throw new ValidationError(Object.fromEntries(missing.map((end) => [key[end], ['Must define A and B terminations when creating a new cable.']])));
    }
    // An end the write leaves as it is has the stored one's model: both read in one round.
    const [a, b] = given.A && given.B ? [given.A[0]?.model, given.B[0]?.model] : await Promise.all([termsType(given.A, ctx, id, 'A'), termsType(given.B, ctx, id, 'B')]);
    if (a && b && !compatible(ctx.registry, a, b)) throw ValidationError.of('b_terminations', `Incompatible termination types: ${a} and ${b}`);
    if (a && a === b && given.A && given.B && given.A.some((r) => given.B!.some((s) => s.id === r.id))) {
      throw ValidationError.of('b_terminations', 'A and B terminations cannot connect to the same object.');
    }
    const claims = await claimsOf(ctx);
    for (const end of ['A', 'B'] as const) {
      const twice = given[end]?.find((r) => (claims.get(nodeOf(r.model, r.id)) ?? 0) > 1);
      if (twice) throw ValidationError.of(key[end], `${twice.model} ${twice.id} is a termination of more than one cable in this request.`);
    }
    // Both ends' objects are read in one round; an error of the A end is reported first.
    const written = (['A', 'B'] as const).flatMap((end) => (given[end] ?? []).map((ref) => ({ end, ref })));
    const rows = await lockedRows(written.map((w) => w.ref), ctx);
    for (let n = 0; n < written.length; n++) {
      const problem = takenProblem(written[n].ref, rows[n], id, key[written[n].end], ctx.registry);
      if (problem) throw problem;
    }
  },
  hooks: {
    beforeSave(item) {
      // A cable without a length has no unit either.
      if (item.row.length === null || item.row.length === undefined) item.columns.length_unit = null;
    },
    async afterSave(items, session) {
      await retraceCables(items.filter(changesPaths), session);
    },
  },
});

/** One object at one end of a cable; written through the cable's ends, or on its own. */
export const CableTermination = defineModel('dcim.cabletermination', {
  path: 'cable-terminations',
  verboseName: 'cable termination',
  fields: {
    cable: f.fk('dcim.cable', { onDelete: 'cascade', filterBy: 'id', related: 'terminations' }),
    cable_end: f.choice(CableEnd),
    termination: f.generic({ feature: 'cabled' }),
  },
  unique: [{ fields: ['termination'] }],
  brief: ['cable', 'cable_end'],
  async displayLoader(rows, ctx) {
    const cables = await loadDisplays(Cable, rows.map((r) => r.cable_id as number), ctx);
    const names = new Map<string, string>();
    for (const [model, ids] of idsByModel(rows.flatMap((r) => endOf(r, ctx.registry) ?? []).map((e) => nodeOf(e.model, e.id)))) {
      for (const [id, name] of await loadDisplays(ctx.registry.get(model), ids, ctx)) names.set(nodeOf(model, id), name);
    }
    return new Map(rows.map((r) => {
      const end = endOf(r, ctx.registry);
      return [r.id as number, `Cable ${cables.get(r.cable_id as number) ?? `#${r.cable_id}`} to ${end ? names.get(nodeOf(end.model, end.id)) ?? '' : ''}`];
    }));
  },
  displayUses: ['cable', 'termination'],
  ordering: ['cable', 'cable_end', 'id'],
  parent: 'cable',
  features: ['changelog'],
  async validate(row, ctx) {
    const model = ctx.registry.objectTypes.keyOf(row.termination_type_id as number)!;
    const ref = { model, id: row.termination_id as number };
    await checkFree([ref], row.cable_id as number, 'termination_id', ctx);
    const same = await endType(ctx, row.cable_id as number, row.cable_end as 'A' | 'B');
    const other = await endType(ctx, row.cable_id as number, row.cable_end === 'A' ? 'B' : 'A');
    const moving = ctx.instance && ctx.instance.cable_id === row.cable_id;
    if (same && same !== model && !moving) throw ValidationError.of('termination_type', 'Cannot connect different termination types to same end of cable.');
    if (other && !compatible(ctx.registry, model, other)) throw ValidationError.of('termination_type', `Incompatible termination types: ${model} and ${other}`);
  },
  hooks: {
    async afterSave(items, session) {
      const registry = session.registry;
      const before = items.flatMap((i) => (i.instance ? endOf(i.instance, registry) ?? [] : []));
      const after = items.flatMap((i) => endOf(i.row, registry) ?? []);
      await detach(session, before);
      await attach(session, after);
      await retraceIn(session, [...before, ...after].flatMap((e) => [nodeOf('dcim.cable', e.cable), nodeOf(e.model, e.id)]));
    },
    async afterDelete(rows, session) {
      const ends = rows.flatMap((r) => endOf(r, session.registry) ?? []);
      await detach(session, ends);
      await retraceIn(session, ends.flatMap((e) => [nodeOf('dcim.cable', e.cable), nodeOf(e.model, e.id)]));
    },
  },
});

/**
 * A traced cable path (NetBox's CablePath): its hops from the origin endpoints on, and whether it is complete,
 * active and split. Kept by the cabling code in the transaction of each change; not served itself.
 */
export const CablePath = defineModel('dcim.cablepath', {
  path: 'cable-paths',
  served: false,
  fields: {
    path: f.json({ readOnly: true }),
    is_active: f.boolean({ default: false }),
    is_complete: f.boolean({ default: false }),
    is_split: f.boolean({ default: false }),
  },
  brief: ['is_active', 'is_complete', 'is_split'],
});

/** A node name, b-tree indexed: the paths through an object (or starting at it) are found by equality. */
class NodeField extends StringField {
  constructor() {
    super({ max: 120, readOnly: true });
  }

  override indexes(): ExpressionIndex[] {
    const name = `${this.model.table}_${this.name}_idx`;
    return [{ name, expression: `create index "${name}" on "${this.model.table}" ("${this.name}")` }];
  }
}

/** Each object and cable on a cable path (`dcim.interface:12`), the origins marked: the index of the paths. */
export const CablePathNode = defineModel('dcim.cablepathnode', {
  path: 'cable-path-nodes',
  served: false,
  fields: {
    // Written and deleted with its path by the re-trace, thousands at once in a bulk write: no constraint to check.
    path: f.fk('dcim.cablepath', { onDelete: 'cascade', constraint: false }),
    node: new NodeField(),
    origin: f.boolean({ default: false }),
  },
  unique: [{ fields: ['path', 'node'] }],
  brief: ['node'],
});
