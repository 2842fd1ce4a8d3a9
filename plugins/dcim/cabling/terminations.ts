import { appendTo, lockedRow, storedRow, storedRowsWhere, writeBehind, type Db, type Memo, type ModelRegistry, type ObjectRef, type Row } from 'patchbay';

/** Where cable termination rows are written: the write's transaction, and its memo, which keeps the rows written. */
export interface CablingScope {
  db: Db;
  registry: ModelRegistry;
  memo: Memo;
}

/**
 * Where a write remembers the termination rows it left cable `id` with (what a trace of the cable reads), in the
 * order a read gives; a row it inserted has no `id` there (see `replaceEnds`).
 */
export const storedEnds = (id: number): string => storedRowsWhere('dcim.cabletermination', 'cable_id', id);

/** One object at one end of one cable. */
export interface CableEndRef extends ObjectRef {
  cable: number;
  end: 'A' | 'B';
}

/** Keeps the rows an update answered as the write's stored rows of `model`. */
function remember(memo: Memo, model: string, rows: Row[]): void {
  for (const row of rows) memo.remember(storedRow(model, row.id as number), row);
}

/** Sets `cable` and `cable_end` on objects of one table (bindings: the table, `attachment` of the ends). */
const ATTACH = `update ?? t set cable_id = v.cable, cable_end = v.end from jsonb_to_recordset(?::jsonb) as v(id int, cable int, "end" text) where t.id = v.id`;
const attachment = (ends: CableEndRef[]): string => JSON.stringify(ends.map((r) => ({ id: r.id, cable: r.cable, end: r.end })));

/** Sets `cable` and `cable_end` on the objects now at a cable end: one statement per model. */
export async function attach({ db, registry, memo }: CablingScope, ends: CableEndRef[]): Promise<void> {
  for (const [model, rows] of byModel(ends)) {
    const { rows: updated } = (await db.raw(`${ATTACH} returning t.*`, [registry.get(model).table, attachment(rows)])) as { rows: Row[] };
    remember(memo, model, updated);
  }
}

/** The rows of `refs` as this step holds them (remembered, or read under its row locks); undefined unless it holds all. */
async function heldRows({ memo }: CablingScope, model: string, refs: ObjectRef[]): Promise<Row[] | undefined> {
  const rows = await Promise.all(refs.map((r) => memo.recall<Row>(storedRow(model, r.id)) ?? lockedRow(memo, model, r.id)));
  return rows.every((r): r is Row => r !== undefined) ? rows : undefined;
}

/** Clears `cable` and `cable_end` on objects that left a cable (unless they are on another one already). */
export async function detach({ db, registry, memo }: CablingScope, ends: Omit<CableEndRef, 'end'>[]): Promise<void> {
  for (const [model, rows] of byModel(ends)) {
    const { rows: updated } = (await db.raw(
      `update ?? t set cable_id = null, cable_end = null from jsonb_to_recordset(?::jsonb) as v(id int, cable int) where t.id = v.id and t.cable_id = v.cable returning t.*`,
      [registry.get(model).table, JSON.stringify(rows.map((r) => ({ id: r.id, cable: r.cable })))],
    )) as { rows: Row[] };
    remember(memo, model, updated);
  }
}

function byModel<T extends ObjectRef>(refs: T[]): Map<string, T[]> {
  const found = new Map<string, T[]>();
  for (const ref of refs) appendTo(found, ref.model, ref);
  return found;
}

/** A cable termination row as an object reference. */
export function endOf(row: Row, registry: ModelRegistry): CableEndRef | undefined {
  const model = registry.objectTypes.keyOf(row.termination_type_id as number);
  return model ? { model, id: row.termination_id as number, cable: row.cable_id as number, end: row.cable_end as 'A' | 'B' } : undefined;
}

/** The objects one end of one cable is to have. */
export interface EndWrite {
  cable: number;
  end: 'A' | 'B';
  refs: ObjectRef[];
}

/**
 * Makes each write's `refs` the objects at its end of its cable: termination rows removed and added (one moving to
 * the cable's other end is moved), and the objects' `cable` and `cable_end` kept in step. Cables just created
 * (`created`) have no rows yet to compare with. The write remembers the termination rows each cable now has.
 */
export async function replaceEnds(scope: CablingScope, writes: EndWrite[], created: boolean): Promise<void> {
  const { db, registry } = scope;
  const existing = created ? [] : ((await db('dcim_cabletermination').select('*').whereRaw('cable_id = any(?)', [[...new Set(writes.map((w) => w.cable))]])) as Row[]);
  const key = (r: ObjectRef) => `${r.model}:${r.id}`;
  const atEnd = new Map<string, Row[]>();
  for (const row of existing) appendTo(atEnd, `${row.cable_id}:${row.cable_end}`, row);
  const removed: Row[] = [];
  const added: CableEndRef[] = [];
  for (const { cable, end, refs } of writes) {
    // New cables have nothing to compare with (a bulk create writes thousands of ends).
    if (created) {
      for (const r of refs) added.push({ model: r.model, id: r.id, cable, end });
      continue;
    }
    const wanted = new Set(refs.map(key));
    const current = (atEnd.get(`${cable}:${end}`) ?? []).map((r) => ({ row: r, ref: endOf(r, registry) }));
    removed.push(...current.filter((c) => !c.ref || !wanted.has(key(c.ref))).map((c) => c.row));
    const kept = new Set(current.flatMap((c) => (c.ref ? [key(c.ref)] : [])));
    added.push(...refs.filter((r) => !kept.has(key(r))).map((r) => ({ ...r, cable, end })));
  }
  if (removed.length) {
    await db('dcim_cabletermination').whereRaw('id = any(?)', [removed.map((r) => r.id as number)]).delete();
    await detach(scope, removed.flatMap((r) => endOf(r, registry) ?? []));
  }
  // The rows now at the written ends, as the write remembers them: a moved row keeps its id; a new row's id is the
  // insert's, which nothing the write does reads (the rows of an end are in id order, new ones last, as written).
  const gone = new Set(removed.map((r) => r.id as number));
  const before = new Map(existing.filter((r) => !gone.has(r.id as number)).map((r) => [`${r.termination_type_id}:${r.termination_id}`, r]));
  const placed = added.map((a): Row => {
    const type = registry.objectTypes.idOf(a.model);
    return { ...(before.size ? before.get(`${type}:${a.id}`) : undefined), cable_id: a.cable, cable_end: a.end, termination_type_id: type, termination_id: a.id };
  });
  if (added.length) {
    // Objects this step locked (every end a cable names) are updated in the statement inserting the rows: their new
    // rows are the locked ones with the new cable, as nothing else can have changed them. Others answer their update.
    const byModels = [...byModel(added)];
    const known = await Promise.all(byModels.map(([model, refs]) => heldRows(scope, model, refs)));
    const updates = byModels.filter((_, k) => known[k]).map(([model, refs]) => ({ table: registry.get(model).table, refs }));
    // Written behind: the write goes on (change records, traces, its answer) while PostgreSQL stores the rows.
    await writeBehind(db, db.raw(
      `${updates.length ? `with ${updates.map((_, k) => `u${k} as (${ATTACH})`).join(', ')} ` : ''}
       insert into dcim_cabletermination (cable_id, cable_end, termination_type_id, termination_id, created, last_updated)
       select v.cable_id, v.cable_end, v.termination_type_id, v.termination_id, now(), now()
       from jsonb_to_recordset(?::jsonb) as v(cable_id int, cable_end text, termination_type_id int, termination_id int)
       on conflict (termination_type_id, termination_id) do update set cable_id = excluded.cable_id, cable_end = excluded.cable_end, last_updated = now()`,
      [...updates.flatMap((u) => [u.table, attachment(u.refs)]), JSON.stringify(placed)],
    ));
    for (const [k, [model, refs]] of byModels.entries()) {
      const held = known[k];
      if (held) remember(scope.memo, model, held.map((row, n) => ({ ...row, cable_id: refs[n].cable, cable_end: refs[n].end })));
    }
    await attach(scope, byModels.filter((_, k) => !known[k]).flatMap(([, refs]) => refs));
  }
  const moved = new Set(placed.flatMap((r) => (r.id === undefined ? [] : [r.id as number])));
  const staying = existing.filter((r) => !gone.has(r.id as number) && !moved.has(r.id as number));
  const order = (r: Row) => (r.id === undefined ? Number.MAX_SAFE_INTEGER : (r.id as number));
  const ends = new Map(writes.map((w) => [w.cable, [] as Row[]]));
  for (const row of [...staying, ...placed].sort((a, b) => order(a) - order(b))) ends.get(row.cable_id as number)?.push(row);
  for (const [cable, rows] of ends) scope.memo.remember(storedEnds(cable), rows);
}
