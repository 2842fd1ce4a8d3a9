import type { Db, ModelRegistry, ObjectRef, Row } from '../../../kernel/index.js';

/** One object at one end of one cable. */
export interface CableEndRef extends ObjectRef {
  cable: number;
  end: 'A' | 'B';
}

/** Sets `cable` and `cable_end` on the objects now at a cable end: one statement per model. */
export async function attach(db: Db, registry: ModelRegistry, ends: CableEndRef[]): Promise<void> {
  for (const [model, rows] of byModel(ends)) {
    await db.raw(
      `update ?? t set cable_id = v.cable, cable_end = v.end from jsonb_to_recordset(?::jsonb) as v(id int, cable int, "end" text) where t.id = v.id`,
      [registry.get(model).table, JSON.stringify(rows.map((r) => ({ id: r.id, cable: r.cable, end: r.end })))],
    );
  }
}

/** Clears `cable` and `cable_end` on objects that left a cable (unless they are on another one already). */
export async function detach(db: Db, registry: ModelRegistry, ends: Omit<CableEndRef, 'end'>[]): Promise<void> {
  for (const [model, rows] of byModel(ends)) {
    await db.raw(
      `update ?? t set cable_id = null, cable_end = null from jsonb_to_recordset(?::jsonb) as v(id int, cable int) where t.id = v.id and t.cable_id = v.cable`,
      [registry.get(model).table, JSON.stringify(rows.map((r) => ({ id: r.id, cable: r.cable })))],
    );
  }
}

function byModel<T extends ObjectRef>(refs: T[]): Map<string, T[]> {
  const found = new Map<string, T[]>();
  for (const ref of refs) found.set(ref.model, [...(found.get(ref.model) ?? []), ref]);
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
 * (`created`) have no rows yet to compare with.
 */
export async function replaceEnds(db: Db, registry: ModelRegistry, writes: EndWrite[], created: boolean): Promise<void> {
  const existing = created ? [] : ((await db('dcim_cabletermination').select('*').whereRaw('cable_id = any(?)', [[...new Set(writes.map((w) => w.cable))]])) as Row[]);
  const key = (r: ObjectRef) => `${r.model}:${r.id}`;
  const removed: Row[] = [];
  const added: CableEndRef[] = [];
  for (const { cable, end, refs } of writes) {
    const wanted = new Set(refs.map(key));
    const current = existing.filter((r) => r.cable_id === cable && r.cable_end === end).map((r) => ({ row: r, ref: endOf(r, registry) }));
    removed.push(...current.filter((c) => !c.ref || !wanted.has(key(c.ref))).map((c) => c.row));
    const kept = new Set(current.flatMap((c) => (c.ref ? [key(c.ref)] : [])));
    added.push(...refs.filter((r) => !kept.has(key(r))).map((r) => ({ ...r, cable, end })));
  }
  if (removed.length) {
    await db('dcim_cabletermination').whereRaw('id = any(?)', [removed.map((r) => r.id as number)]).delete();
    await detach(db, registry, removed.flatMap((r) => endOf(r, registry) ?? []));
  }
  if (added.length) {
    const rows = added.map((a) => ({ cable: a.cable, end: a.end, type: registry.objectTypes.idOf(a.model), id: a.id }));
    await db.raw(
      `insert into dcim_cabletermination (cable_id, cable_end, termination_type_id, termination_id, created, last_updated)
       select v.cable, v."end", v.type, v.id, now(), now() from jsonb_to_recordset(?::jsonb) as v(cable int, "end" text, type int, id int)
       on conflict (termination_type_id, termination_id) do update set cable_id = excluded.cable_id, cable_end = excluded.cable_end, last_updated = now()`,
      [JSON.stringify(rows)],
    );
    await attach(db, registry, added);
  }
}
