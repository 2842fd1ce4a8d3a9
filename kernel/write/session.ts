import type { Knex } from '@mikro-orm/knex';
import type { Settings } from '../config/settings.js';
import { notFound } from '../base/errors.js';
import { checkTexts } from '../base/text.js';
import { isoTimestamp, type ObjectEvent, type ObjectEventType } from '../events/event.js';
import type { EventOutbox, StoredEvents } from '../events/outbox.js';
import type { ModelWatch } from '../events/watch.js';
import { displaysOf } from '../model/display.js';
import type { Field, ObjectRef, WriteValues } from '../model/field.js';
import type { Model, SaveItem } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import { renderRows, type FieldSelection } from '../model/render.js';
import { ItemErrors, Memo, ValidationError, type ErrorMap, type Json, type JsonObject, type RenderContext, type RenderMode, type Row } from '../base/types.js';
import { isPlainObject, isStoredId, pythonType } from '../base/values.js';
import { Batcher } from '../model/batch.js';
import { snapshotRows, type ChangeHook, type ChangeRecord } from './changes.js';
import type { Actor, ReferenceOptions, WriteContext, WriteMode, WriteScope } from './context.js';
import { planDeletion } from './deletion.js';
import { viewableBy, type Gate } from './gate.js';
import { exists, resolveRelated } from './resolve.js';
import { insertRows, updateRows } from './store.js';
import { stored, storedRow } from '../model/stored.js';
import { checkUnique } from './unique.js';
import { whereIdIn } from '../base/typed-arrays.js';
import { appendTo } from '../base/collections.js';

/** What a write session needs from the server. */
export interface SessionServices {
  registry: ModelRegistry;
  settings: Settings;
  outbox: EventOutbox;
  watch: ModelWatch;
  /** Plugins' hooks, run inside the transaction for every change. */
  changeHooks: ChangeHook[];
  /** Told, once a write committed, how many objects of each model it created, updated and deleted (metrics). */
  committedChanges?: (counts: ChangeCounts) => void;
}

/** Objects a write changed, by model key and action. */
export type ChangeCounts = Map<string, Record<ChangeRecord['action'], number>>;

export interface WriteOptions {
  /** A write the server makes itself (derived objects, jobs): permissions are not checked and read-only fields may be set. */
  internal?: boolean;
  /** Updates and deletes: ids that do not exist or that the writer may not touch are `skip`ped (bulk) or a 404 (`fail`, the default). */
  missing?: 'skip' | 'fail';
}

/** An existing object to update or delete: its id, and the body (the changes, or a delete's `changelog_message`). */
export interface Target {
  id: unknown;
  body?: unknown;
}

const EVENT_TYPE: Record<ChangeRecord['action'], ObjectEventType> = { create: 'object_created', update: 'object_updated', delete: 'object_deleted' };

/** One item of a write as it goes through the steps; an item with errors takes no further step. */
interface Item {
  body: Record<string, unknown>;
  id?: number;
  message: string;
  instance?: Row;
  values: WriteValues;
  errors: ErrorMap;
  /** Not found or not permitted, in a bulk update or delete: left alone. */
  skipped?: boolean;
  row?: Row;
}

/** The `changelog_message` of a written item (write-only, at most 200 characters). */
function changelogMessage(body: Record<string, unknown>): string {
  const value = body.changelog_message;
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw ValidationError.of('changelog_message', 'Not a valid string.');
  if (value.length > 200) throw ValidationError.of('changelog_message', 'Ensure this field has no more than 200 characters.');
  return value;
}

/** Whether an item has errors (asked of every item at every step: no list of keys is made). */
function failed(item: Item): boolean {
  for (const key in item.errors) if (Object.prototype.hasOwnProperty.call(item.errors, key)) return true;
  return false;
}

/** A hook's own write that failed, as a failure of the write that ran the hook (its items are not the caller's). */
function asOwn(err: unknown): unknown {
  if (!(err instanceof ItemErrors)) return err;
  return new ValidationError({ __all__: err.items.flatMap((e) => Object.entries(e).flatMap(([key, messages]) => messages.map((m) => (key === '__all__' ? m : `${key}: ${m}`)))) });
}

/** Keeps a ValidationError of a step in `errors` (an item's); anything else is not the item's fault. */
function keep(errors: ErrorMap, failure: unknown): void {
  const err = asOwn(failure);
  if (!(err instanceof ValidationError)) throw err;
  Object.assign(errors, err.errors);
}

/**
 * Runs `step`, keeping a ValidationError in `errors`. A step that returns no promise is run and judged at once: a
 * bulk write runs steps for thousands of objects, most of them synchronous.
 */
function capture(errors: ErrorMap, step: () => Promise<void> | void): Promise<void> | void {
  try {
    const running = step();
    if (running) return Promise.resolve(running).catch((failure: unknown) => keep(errors, failure));
  } catch (failure) {
    keep(errors, failure);
  }
}

/** What parsing a field's plain default (text, number, flag, null) wrote, when it wrote only such values. */
interface ParsedDefault {
  value: Json;
  parsed: WriteValues;
}

const isScalar = (value: unknown) => value === null || typeof value !== 'object';

/** Adds what one field parsed to an item's values. */
function addParsed(out: WriteValues, parsed: WriteValues): void {
  Object.assign(out.columns, parsed.columns);
  Object.assign(out.values, parsed.values);
}

/** Fills in the values `fields` (from the `n`th on) derive from the write rather than the body (who created an object). */
function fill(fields: readonly Field[], n: number, item: Item, ctx: WriteContext): Promise<void> | void {
  for (let k = n; k < fields.length; k++) {
    const filling = fields[k].fill(ctx, item.values);
    if (filling) return filling.then(() => fill(fields, k + 1, item, ctx));
  }
}

/** Runs a hook of a whole write step; a failed write of its own fails the step as a whole. */
async function hook(step: () => Promise<void> | void): Promise<void> {
  try {
    await step();
  } catch (err) {
    throw asOwn(err);
  }
}

/**
 * Every create, update and delete, from any interface (REST, CLI, plugin routes and jobs, model hooks), goes
 * through a write session, which owns the whole sequence: parse and validate every item (related objects,
 * unique checks and side data loaded for all items at once), lock, store in set-based statements, lifecycle
 * hooks, permission checks, change records and events. One transaction; events and follow-up work only after
 * the commit. A write of N objects runs a number of statements that does not grow with N.
 */
export class WriteSession {
  /** Values shared by the steps of one write (definitions); cleared once a write stored its objects. */
  readonly memo = new Memo();
  private readonly batcher = new Batcher();
  /** The write's events by object (`app.model:id`): several changes of one object make one event. */
  private readonly events = new Map<string, ObjectEvent>();
  /** The rows whose events' data is rendered once the write is done (all of a model's in one render), by event key. */
  private readonly unrendered = new Map<string, { model: Model; row: Row }>();
  private storedEvents?: StoredEvents;
  /** Watched models this write changed. */
  private readonly touched = new Set<string>();
  private readonly counts: ChangeCounts = new Map();
  private readonly followUps: (() => Promise<void>)[] = [];
  private readonly undo: (() => Promise<void>)[] = [];
  /** Fields' plain defaults as parsed once in this write: a bulk create gives thousands of objects the same ones. */
  private readonly defaults = new Map<Field, ParsedDefault>();

  /** @internal The kernel opens sessions (`ctx.as(req)`, `ctx.system`); plugins are handed them. */
  constructor(
    readonly db: Knex.Transaction,
    private readonly services: SessionServices,
    readonly actor: Actor,
    private readonly gate: Gate,
    /** Where rendered URLs point (the request's host); empty for host-less rendering. */
    private readonly baseUrl = '',
    /** Which run of the write this is: a write that conflicted is run again (`WriteRunner`). */
    readonly attempt = 1,
  ) {}

  get settings(): Settings {
    return this.services.settings;
  }

  get registry(): ModelRegistry {
    return this.services.registry;
  }

  /** A render context inside the transaction: for the writer (what they may view), or host-less for events and the log. */
  context(options: { hostless?: boolean; created?: boolean } = {}): RenderContext {
    return {
      db: this.db, registry: this.registry, settings: this.settings, memo: this.memo,
      baseUrl: options.hostless ? '' : this.baseUrl, created: options.created,
      viewable: options.hostless ? undefined : viewableBy(this.gate, this.db),
    };
  }

  /** Renders rows as the API does (inside the transaction, so a write's response shows what it wrote). */
  render(model: Model, rows: Row[], options: { mode?: RenderMode; selection?: FieldSelection; created?: boolean } = {}): Promise<JsonObject[]> {
    const ctx = this.context({ created: options.created });
    if (options.created && this.onlyCreated(model)) ctx.unreferenced = { model: model.key, ids: new Set(rows.map((r) => r.id as number)) };
    return renderRows(model, rows, ctx, options.mode ?? 'full', options.selection);
  }

  /**
   * Whether this write only created objects of `model`: a row referring to one of them could only have been written
   * by a later step of the write (a hook creating components), and there was none.
   */
  private onlyCreated(model: Model): boolean {
    const changes = this.counts.get(model.key);
    return this.counts.size === 1 && changes !== undefined && changes.update === 0 && changes.delete === 0;
  }

  /** The stored row `id` of `model` as the transaction sees it, batched with the write's other items; `lock` holds it. */
  stored(model: Model, id: number, options: { lock?: boolean } = {}): Promise<Row | undefined> {
    return stored({ db: this.db, memo: this.memo, batch: (loader, key, load) => this.batcher.load(loader, key, load) }, model, id, options.lock === true);
  }

  /** Work to do once the transaction committed (removing files, for instance). */
  afterCommit(work: () => Promise<void>): void {
    this.followUps.push(work);
  }

  /** Work to undo what the write did outside the database (a file it wrote), if it does not commit. */
  onRollback(work: () => Promise<void>): void {
    this.undo.push(work);
  }

  /** Undoes the write's effects outside the database; the runner calls it when the transaction failed. */
  async rolledBack(): Promise<void> {
    for (const work of this.undo.splice(0)) await work().catch(() => undefined);
  }

  /** Creates one object per body, all or none; errors come back aligned with the bodies (ItemErrors). */
  async create(model: Model, bodies: unknown[], options: WriteOptions = {}): Promise<Row[]> {
    if (!options.internal) await this.gate.require(model, 'add');
    return this.save(model, bodies.map((body) => this.item(body)), 'create', options);
  }

  /** Updates each target with its body (PUT: `update`, PATCH: `partial`), rows locked; all or none. */
  async update(model: Model, targets: Target[], mode: 'update' | 'partial', options: WriteOptions = {}): Promise<Row[]> {
    if (!options.internal) await this.gate.require(model, 'change');
    const items = this.targets(targets);
    await this.lock(model, items, 'change', options);
    return this.save(model, items, mode, options);
  }

  /** Deletes the targets and what cascades from them (each change-logged), or refuses with 409; all or none. */
  async delete(model: Model, targets: Target[], options: WriteOptions = {}): Promise<void> {
    if (!options.internal) await this.gate.require(model, 'delete');
    const items = this.targets(targets.map((t) => ({ id: t.id, body: t.body ?? {} })));
    if (items.some(failed)) throw new ItemErrors(items.map((i) => i.errors));
    await this.lock(model, items, 'delete', options);
    const messages = new Map(items.filter((i) => i.instance).map((i) => [i.id!, i.message]));
    const rows = items.flatMap((i) => (i.instance ? [i.instance] : []));
    for (const step of await planDeletion(model, rows, this.context({ hostless: true }))) {
      const ids = step.rows.map((r) => r.id as number);
      const hooks = step.model.decl.hooks;
      await hook(() => hooks?.beforeDelete?.(step.rows, this));
      const before = this.snapshotting(step.model, 'delete') ? await snapshotRows(step.model, step.rows, this.context()) : undefined;
      const message = (row: Row) => (step.model === model ? messages.get(row.id as number) ?? '' : '');
      await this.changed(step.model, 'delete', step.rows.map((row) => ({ row, before: before?.get(row.id as number) ?? null, message: message(row) })));
      const cleanup = { ...this.context(), afterCommit: (work: () => Promise<void>) => this.afterCommit(work) };
      for (const field of this.registry.outputFields(step.model, 'full')) await field.cleanup(ids, cleanup);
      await this.db(step.model.table).whereIn('id', ids).delete();
      for (const id of ids) this.memo.forget(storedRow(step.model.key, id));
      await hook(() => hooks?.afterDelete?.(step.rows, this));
    }
    this.memo.clear();
  }

  /** Hands the write's events to their receivers, in its transaction; the runner calls it once the work is done. */
  async storeEvents(): Promise<void> {
    await this.renderEvents();
    if (this.events.size) this.storedEvents = await this.services.outbox.store(this.db, [...this.events.values()]);
    await this.services.watch.announce(this.db, this.touched);
  }

  /** Hands the events over and runs the follow-ups; the session's runner calls it once the transaction committed. */
  async committed(): Promise<void> {
    if (this.counts.size) this.services.committedChanges?.(this.counts);
    await this.services.watch.changed(this.touched);
    if (this.storedEvents) await this.services.outbox.dispatch(this.storedEvents);
    for (const work of this.followUps) await work();
  }

  // ---- the steps

  /** An item of a write; `target` for updates and deletes, which name their object. */
  private item(body: unknown, target?: Target): Item {
    const item: Item = { body: isPlainObject(body) ? body : {}, message: '', values: { columns: {}, values: {} }, errors: {} };
    if (target) {
      const { id } = target;
      if (id === undefined || id === null) item.errors.id = ['This field is required.'];
      else if (Number.isSafeInteger(Number(id)) && (typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)))) item.id = Number(id);
      else item.errors.id = ['A valid integer is required.'];
      if (failed(item)) return item;
    }
    // An update or delete may come without a body; a create may not.
    if (!isPlainObject(body) && (!target || body !== undefined)) {
      item.errors.non_field_errors = [`Invalid data. Expected a dictionary, but got ${pythonType(body)}.`];
      return item;
    }
    try {
      checkTexts(item.body);
      item.message = changelogMessage(item.body);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      Object.assign(item.errors, err.errors);
    }
    return item;
  }

  /** The items of an update or delete; an object listed twice is a mistake, not two changes. */
  private targets(targets: Target[]): Item[] {
    const items = targets.map((t) => this.item(t.body, t));
    const seen = new Set<number>();
    for (const item of items.filter((i) => !failed(i))) {
      if (seen.has(item.id!)) item.errors.id = [`Object ${item.id} is listed more than once.`];
      seen.add(item.id!);
    }
    return items;
  }

  /** Reads the targets' rows `FOR UPDATE` (in id order, so concurrent writes queue rather than deadlock). */
  private async lock(model: Model, items: Item[], action: 'change' | 'delete', options: WriteOptions): Promise<void> {
    const ids = [...new Set(items.filter((i) => !failed(i)).map((i) => i.id!))].filter(isStoredId);
    let rows: Row[] = [];
    if (ids.length) {
      const qb = this.db(`${model.table} as t`).select('t.*').orderBy('t.id').forUpdate();
      whereIdIn(qb, 't.id', ids);
      if (!options.internal) await this.gate.restrict(qb, model, action);
      rows = (await qb) as Row[];
    }
    const found = new Map(rows.map((r) => [r.id as number, r]));
    for (const item of items.filter((i) => !failed(i))) {
      item.instance = found.get(item.id!);
      if (item.instance) continue;
      if (options.missing !== 'skip') throw notFound();
      item.skipped = true;
    }
  }

  /** What parsing, hooks and loaders share during one write. */
  private scope(mode: WriteMode, options: WriteOptions): WriteScope {
    const scope: WriteScope = {
      db: this.db, registry: this.registry, settings: this.settings, memo: this.memo, actor: this.actor, mode,
      internal: options.internal === true,
      batch: (loader, key, load) => this.batcher.load(loader, key, load),
      // Looking only among viewable objects is the writer's permission, not the server's.
      resolve: (model, value, key, opts) => resolveRelated(scope, model, value, key, this.viewGate(opts, options), opts?.lock === true),
      exists: (model, id, opts) => exists(scope, model, id, this.viewGate(opts, options)),
      stored: (model, id, opts) => stored(scope, model, id, opts?.lock === true),
      afterCommit: (work) => this.afterCommit(work),
      onRollback: (work) => this.onRollback(work),
    };
    return scope;
  }

  private viewGate(reference: ReferenceOptions | undefined, options: WriteOptions): Gate | undefined {
    return reference?.viewable && !options.internal ? this.gate : undefined;
  }

  private get logging(): boolean {
    return this.services.changeHooks.length > 0;
  }

  /** Whether changes of `model` need their model values: for the change log or for an event's snapshots. */
  private snapshotting(model: Model, action: ChangeRecord['action']): boolean {
    return this.logging || this.services.outbox.wants(model.key, EVENT_TYPE[action]);
  }

  /**
   * Parses one item's body, as NetBox's serializers and `full_clean` do. Fields parse side by side, so that their
   * lookups share the write's rounds (a cable's two ends, a device's site and rack); errors keep the fields' order.
   * Only what runs asynchronously is waited for, and nothing is made for a field that parses without error: a bulk
   * write parses every field of thousands of objects. A failure that is not the item's comes back rejected.
   */
  private parse(model: Model, item: Item, ctx: WriteContext, options: WriteOptions): Promise<void> | void {
    try {
      const fields = this.registry.outputFields(model, 'full');
      const filled = fill(fields, 0, item, ctx);
      return filled ? filled.then(() => this.parseFields(fields, item, ctx, options)) : this.parseFields(fields, item, ctx, options);
    } catch (failure) {
      return Promise.reject(failure);
    }
  }

  /** Parses the fields of an item once its filled-in values are there (see `parse`). */
  private parseFields(fields: readonly Field[], item: Item, ctx: WriteContext, options: WriteOptions): Promise<void> | void {
    // A field's errors are kept in its place, to be reported in the fields' order.
    let errors: ErrorMap[] | undefined;
    let pending: Promise<void>[] | undefined;
    const errorsOf = (n: number): ErrorMap => ((errors ??= [])[n] ??= {});
    for (let n = 0; n < fields.length; n++) {
      const field = fields[n];
      if (field.readOnly && !options.internal) continue;
      try {
        const running = this.parseField(field, item, ctx);
        if (running) (pending ??= []).push(running.catch((failure: unknown) => keep(errorsOf(n), failure)));
      } catch (failure) {
        keep(errorsOf(n), failure);
      }
    }
    const gather = () => {
      if (errors) for (const fieldErrors of errors) if (fieldErrors) Object.assign(item.errors, fieldErrors);
    };
    return pending ? Promise.all(pending).then(gather) : gather();
  }

  /** Parses one field of an item: its value in the body, or its default in a create; a required field must be there. */
  private parseField(field: Field, item: Item, ctx: WriteContext): Promise<void> | void {
    for (const key of field.keys) if (Object.prototype.hasOwnProperty.call(item.body, key)) return field.parse(item.body, ctx, item.values);
    if (ctx.mode === 'partial') return;
    if (field.required) throw new ValidationError(Object.fromEntries(field.keys.map((k) => [k, [field.requiredMessage]])));
    const fallback = ctx.mode === 'create' ? field.createDefault() : undefined;
    if (fallback !== undefined) return this.parseDefault(field, fallback, ctx, item.values);
  }

  /**
   * Parses a field's default into `out`: a plain default parsed to plain values once a write, the same for every
   * object (a field's parse depends on the value it is given and the write, not on the object).
   */
  private parseDefault(field: Field, value: Json, ctx: WriteContext, out: WriteValues): Promise<void> | void {
    const known = this.defaults.get(field);
    if (known && known.value === value) return addParsed(out, known.parsed);
    const parsed: WriteValues = { columns: {}, values: {} };
    const running = field.parse({ [field.name]: value }, ctx, parsed);
    if (running) return running.then(() => addParsed(out, parsed));
    if (isScalar(value) && Object.values(parsed.columns).every(isScalar) && Object.values(parsed.values).every(isScalar)) this.defaults.set(field, { value, parsed });
    addParsed(out, parsed);
  }

  /** Parse, hooks, validation and unique checks for every item, then the set-based store and what follows it. */
  private async save(model: Model, items: Item[], mode: WriteMode, options: WriteOptions): Promise<Row[]> {
    const action = mode === 'create' ? 'create' : 'update';
    const scope = this.scope(mode, options);
    const live = () => items.filter((i) => !i.skipped && !failed(i));
    const merged = (i: Item) => ({ ...(i.instance ?? {}), ...i.values.columns });
    // A create's items share the scope: a bulk create parses thousands.
    const contextOf = (i: Item): WriteContext => (i.instance ? { ...scope, instance: i.instance } : scope);

    const parsing: Promise<void>[] = [];
    for (const i of live()) {
      const running = this.parse(model, i, contextOf(i), options);
      if (running) parsing.push(running);
    }
    await Promise.all(parsing);
    for (const field of this.registry.outputFields(model, 'full')) {
      if (!field.check) continue;
      const checked = live().filter((i) => field.name in i.values.values);
      if (!checked.length) continue;
      const errors = await field.check!(checked.map((i) => ({ id: i.instance?.id as number | undefined, value: i.values.values[field.name], row: merged(i) })), scope);
      errors.forEach((e, n) => e && Object.assign(checked[n].errors, e));
    }
    const { hooks, validate } = model.decl;
    if (hooks?.beforeSave) {
      await Promise.all(live().map((i) => capture(i.errors, () => hooks.beforeSave!(this.saveItem(action, i, merged), this))));
    }
    if (validate) {
      await Promise.all(live().map((i) => capture(i.errors, () => validate(merged(i), { ...scope, instance: i.instance, model, values: i.values.values }))));
    }
    for (const check of [model.decl.check ?? []].flat()) {
      const checked = live();
      const errors = await check(checked.map((i) => ({ row: merged(i), id: i.instance?.id as number | undefined })), scope);
      errors.forEach((e, n) => e && Object.assign(checked[n].errors, e));
    }
    // Every unique constraint is a unique index too: a first attempt at creating valid objects lets the insert find a
    // clash (23505), and the write's next attempt checks here to word it. Updates check first (values may swap).
    if (action === 'update' || this.attempt > 1 || items.some(failed)) {
      const candidates = live();
      const clashes = await checkUnique(model, candidates.map((i) => ({ row: merged(i), id: i.instance?.id as number | undefined })), this.db);
      clashes.forEach((clash, n) => Object.assign(candidates[n].errors, clash));
    }
    if (items.some(failed)) throw new ItemErrors(items.map((i) => i.errors));

    const stored = live();
    if (!stored.length) return [];
    const before = action === 'update' && this.snapshotting(model, action) ? await snapshotRows(model, stored.map((i) => i.instance!), this.context()) : undefined;
    const rows =
      action === 'create'
        ? await insertRows(this.db, model, stored.map((i) => i.values.columns))
        : await updateRows(this.db, model, stored.map((i) => ({ id: i.instance!.id as number, columns: i.values.columns })));
    stored.forEach((i, n) => (i.row = rows[n]));
    for (const row of rows) this.memo.remember(storedRow(model.key, row.id as number), row);
    // Side data (tags, custom fields, a cable's ends) is stored side by side: stores of one kind share a round.
    await Promise.all(this.registry.outputFields(model, 'full').map(async (field) => {
      if (!field.store) return;
      const entries = stored.filter((i) => field.name in i.values.values).map((i) => ({ id: i.row!.id as number, value: i.values.values[field.name] }));
      if (entries.length) await field.store(entries, scope);
    }));
    // What was loaded before the store is out of date now.
    this.memo.clear();
    if (!options.internal) {
      const previous = new Map(stored.flatMap((i) => (i.instance ? [[i.instance.id as number, i.instance]] : [])));
      await this.gate.verify(this.db, model, action === 'create' ? 'add' : 'change', rows, previous);
    }
    await this.changed(model, action, stored.map((i) => ({ row: i.row!, before: before?.get(i.row!.id as number) ?? null, message: i.message })));
    await hook(() => hooks?.afterSave?.(stored.map((i) => ({ action, row: i.row!, instance: i.instance, values: i.values.values })), this));
    this.memo.clear();
    return rows;
  }

  private saveItem(action: 'create' | 'update', item: Item, merged: (i: Item) => Row): SaveItem {
    return {
      action, body: item.body, values: item.values.values, columns: item.values.columns, instance: item.instance,
      get row() {
        return merged(item);
      },
    };
  }

  /** Change records (one hook call per step, with every object of it) and the events the outbox will keep. */
  private async changed(model: Model, action: ChangeRecord['action'], changes: { row: Row; before: JsonObject | null; message: string }[]): Promise<void> {
    const rows = changes.map((c) => c.row);
    const type = EVENT_TYPE[action];
    if (this.services.watch.watched(model.key)) this.touched.add(model.key);
    const counts = this.counts.get(model.key) ?? { create: 0, update: 0, delete: 0 };
    counts[action] += changes.length;
    this.counts.set(model.key, counts);
    const evented = this.services.outbox.wants(model.key, type);
    if (!this.logging && !evented) return;
    const ctx = this.context({ hostless: true });
    const after = action === 'delete' ? undefined : await snapshotRows(model, rows, ctx);
    if (this.logging) {
      const displays = await displaysOf(model, rows, ctx);
      const parents = [model.decl.parent ?? []].flat().map((name) => model.field(name)!);
      const records: ChangeRecord[] = changes.map(({ row, before, message }) => ({
        action, model, id: row.id as number, before, after: after?.get(row.id as number) ?? null,
        display: displays.get(row.id as number) ?? model.displayOf(row),
        related: parents.reduce<ObjectRef | null>((found, field) => found ?? field.pointsAt(row, this.registry), null),
        actor: this.actor, message, db: this.db,
      }));
      for (const hook of this.services.changeHooks) await hook(records);
    }
    if (!evented) return;
    // A deleted object is rendered before it is gone; the others once the write is done.
    const data = action === 'delete' ? await renderRows(model, rows, ctx, 'full') : undefined;
    changes.forEach(({ row, before }, i) => {
      const key = this.event(model, type, row.id as number, data?.[i] ?? {}, before, after?.get(row.id as number) ?? null);
      if (data) this.unrendered.delete(key);
      else this.unrendered.set(key, { model, row });
    });
  }

  /**
   * The data of the write's created and updated objects, as they are once it is done: one render per model, in which
   * objects the write only created count nothing referring to them (a write of nothing else cannot have added any).
   */
  private async renderEvents(): Promise<void> {
    const byModel = new Map<Model, { key: string; row: Row }[]>();
    for (const [key, { model, row }] of this.unrendered) appendTo(byModel, model, { key, row });
    this.unrendered.clear();
    for (const [model, entries] of byModel) {
      const ctx = this.context({ hostless: true });
      const rows = entries.map((e) => e.row);
      if (this.onlyCreated(model)) ctx.unreferenced = { model: model.key, ids: new Set(rows.map((r) => r.id as number)) };
      const data = await renderRows(model, rows, ctx, 'full');
      entries.forEach(({ key }, i) => (this.events.get(key)!.data = data[i]));
    }
  }

  /** Adds an event, or folds it into the write's earlier event of the object: latest data, and a delete wins; returns its key. */
  private event(model: Model, type: ObjectEventType, id: number, data: JsonObject, before: JsonObject | null, after: JsonObject | null): string {
    const key = `${model.key}:${id}`;
    const earlier = this.events.get(key);
    if (earlier) {
      earlier.data = data;
      earlier.snapshots.postchange = after;
      if (type === 'object_deleted') earlier.type = type;
      return key;
    }
    const { userId, username, requestId } = this.actor;
    this.events.set(key, {
      type, model: model.key, id, timestamp: isoTimestamp(), userId, username, requestId, data,
      snapshots: { prechange: type === 'object_created' ? null : before, postchange: after },
    });
    return key;
  }
}
