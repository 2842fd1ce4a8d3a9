import { HttpError } from '../errors.js';
import { loadDisplays } from './display.js';
import type { Field, WriteContext, WriteValues } from './field.js';
import { ForeignKeyField } from './fields/foreign-key.js';
import { GenericForeignKeyField } from './fields/generic.js';
import { ManyToManyField } from './fields/many-to-many.js';
import type { Model } from './model.js';
import { ValidationError, type Db, type ErrorMap, type RenderContext, type Row } from './types.js';

export type WriteMode = 'create' | 'update' | 'partial';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pythonType(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'NoneType';
  return { string: 'str', number: Number.isInteger(value) ? 'int' : 'float', boolean: 'bool' }[typeof value as string] ?? 'dict';
}

function writable(model: Model, ctx: WriteContext): Field[] {
  return ctx.registry.outputFields(model, 'full').filter((f) => !f.readOnly);
}

/** Parses and validates a written body into column values, as NetBox's serializers and `full_clean` do. */
export async function parseBody(model: Model, body: unknown, ctx: WriteContext, mode: WriteMode): Promise<WriteValues> {
  if (!isPlainObject(body)) {
    throw new ValidationError({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonType(body)}.`] });
  }
  const out: WriteValues = { columns: {}, m2m: new Map(), after: [] };
  const errors: ErrorMap = {};
  for (const field of ctx.registry.outputFields(model, 'full')) await field.fill(ctx, mode, out);
  for (const field of writable(model, ctx)) {
    const present = field.keys.some((k) => Object.prototype.hasOwnProperty.call(body, k));
    try {
      const fallback = present || mode !== 'create' ? undefined : field.createDefault();
      if (present) {
        await field.parse(body, ctx, out);
      } else if (mode !== 'partial' && field.required) {
        throw new ValidationError(Object.fromEntries(field.keys.map((k) => [k, ['This field is required.']])));
      } else if (fallback !== undefined) {
        await field.parse({ [field.name]: fallback }, ctx, out);
      }
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      Object.assign(errors, err.errors);
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const merged = { ...(ctx.instance ?? {}), ...out.columns };
  await model.decl.validate?.(merged, { ...ctx, model });
  await checkUnique(model, merged, ctx.db);
  return out;
}

function columnsOf(model: Model, name: string): string[] {
  const field = model.field(name);
  if (!field) throw new Error(`${model.key}: unique constraint names unknown field ${name}`);
  return field.columns().map((c) => c.name);
}

/** Reports a uniqueness clash as a validation error (the database's unique indexes back this up). */
async function checkUnique(model: Model, row: Row, db: Db): Promise<void> {
  for (const constraint of model.unique) {
    const columns = constraint.fields.flatMap((name) => columnsOf(model, name));
    const whenNull = (constraint.whenNull ?? []).flatMap((name) => columnsOf(model, name));
    if (whenNull.some((c) => row[c] !== null && row[c] !== undefined)) continue;
    if (columns.some((c) => row[c] === null || row[c] === undefined)) continue;
    const qb = db(model.table).first('id');
    for (const c of columns) qb.where(c, row[c] as string | number);
    for (const c of whenNull) qb.whereNull(c);
    if (row.id !== undefined) qb.whereNot('id', row.id as number);
    if (!(await qb)) continue;
    if (constraint.message) throw ValidationError.of('__all__', constraint.message);
    if (constraint.fields.length === 1) {
      const field = model.field(constraint.fields[0])!;
      throw ValidationError.of(field.name, `${model.verboseName} with this ${field.label.toLowerCase()} already exists.`);
    }
    const labels = constraint.fields.map((name) => model.field(name)!.label).join(' and ');
    throw ValidationError.of('__all__', `${model.title.charAt(0)}${model.verboseName.slice(1)} with this ${labels} already exists.`);
  }
}

async function writeLinks(model: Model, id: number, values: WriteValues, db: Db): Promise<void> {
  for (const [name, ids] of values.m2m) {
    const field = model.field(name) as ManyToManyField;
    const { table, source, target } = field.join;
    await db(table).where(source, id).delete();
    if (ids.length) await db(table).insert(ids.map((t) => ({ [source]: id, [target]: t })));
  }
}

export async function insertObject(model: Model, values: WriteValues, db: Db): Promise<Row> {
  const [row] = await db(model.table)
    .insert({ ...values.columns, created: db.fn.now(), last_updated: db.fn.now() })
    .returning('*');
  await writeLinks(model, row.id, values, db);
  for (const work of values.after) await work(row.id, db);
  return row;
}

export async function updateObject(model: Model, id: number, values: WriteValues, db: Db): Promise<Row> {
  const [row] = await db(model.table)
    .where('id', id)
    .update({ ...values.columns, last_updated: db.fn.now() })
    .returning('*');
  await writeLinks(model, id, values, db);
  for (const work of values.after) await work(id, db);
  return row;
}

/** Rows of one model to delete. */
export interface DeletionStep {
  model: Model;
  rows: Row[];
}

/**
 * What deleting `rows` deletes, dependents first (cascades through foreign keys and generic relations),
 * or a 409 naming the protected dependents that stand in the way.
 */
export async function planDeletion(model: Model, rows: Row[], ctx: RenderContext): Promise<DeletionStep[]> {
  const { db, registry } = ctx;
  const steps: DeletionStep[] = [];
  const scheduled = new Map<string, Set<number>>();
  const blockers: { model: Model; row: Row }[] = [];
  const queue: DeletionStep[] = [{ model, rows }];
  while (queue.length) {
    const step = queue.shift()!;
    const seen = scheduled.get(step.model.key) ?? new Set<number>();
    const fresh = step.rows.filter((r) => !seen.has(r.id as number));
    if (!fresh.length) continue;
    fresh.forEach((r) => seen.add(r.id as number));
    scheduled.set(step.model.key, seen);
    steps.push({ model: step.model, rows: fresh });
    const ids = fresh.map((r) => r.id as number);
    for (const { model: dep, field } of registry.dependents(step.model)) {
      const qb = db(dep.table).select('*');
      if (field instanceof GenericForeignKeyField) {
        const typeId = registry.objectTypes.idOf(step.model.key);
        if (typeId === undefined) continue;
        qb.where(field.typeColumn, typeId).whereIn(field.idKey, ids);
        queue.push({ model: dep, rows: await qb });
      } else if (field instanceof ForeignKeyField && field.onDelete !== 'set null') {
        qb.whereIn(field.column, ids);
        const found: Row[] = await qb;
        if (field.onDelete === 'cascade') queue.push({ model: dep, rows: found });
        else blockers.push(...found.map((row) => ({ model: dep, row })));
      }
    }
  }
  const blocking = blockers.filter((b) => !scheduled.get(b.model.key)?.has(b.row.id as number));
  if (blocking.length) {
    const shown = new Map<string, Map<number, string>>();
    for (const b of blocking) {
      if (!shown.has(b.model.key)) {
        const ids = blocking.filter((x) => x.model === b.model).map((x) => x.row.id as number);
        shown.set(b.model.key, await loadDisplays(b.model, ids, ctx));
      }
    }
    const names = blocking.map((b) => `${shown.get(b.model.key)!.get(b.row.id as number)} (${b.row.id})`).join(', ');
    throw new HttpError(409, {
      detail: `Unable to delete object. ${blocking.length} dependent objects were found: ${names}`,
    });
  }
  return steps.reverse();
}
