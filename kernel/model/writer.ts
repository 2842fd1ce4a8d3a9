import type { Settings } from '../config/settings.js';
import type { EventBus, ModelAction, ModelEvent } from '../events/bus.js';
import { loadDisplays } from './display.js';
import { ForeignKeyField } from './fields/foreign-key.js';
import { GenericForeignKeyField } from './fields/generic.js';
import type { Model } from './model.js';
import type { ModelRegistry } from './registry.js';
import { renderRows } from './render.js';
import { insertObject, parseBody, planDeletion, updateObject, type WriteMode } from './store.js';
import { ValidationError, type Db, type JsonObject, type RenderContext, type Row } from './types.js';

/** Who writes: the user (if any) and the request the change belongs to. */
export interface Actor {
  userId: number | null;
  username: string;
  requestId: string;
}

/** One created, updated or deleted object, as change hooks see it inside the write's transaction. */
export interface ChangeRecord {
  action: 'create' | 'update' | 'delete';
  model: Model;
  id: number;
  /** Model values before and after (null before a create and after a delete). */
  before: JsonObject | null;
  after: JsonObject | null;
  /** The object's `display` at the time. */
  display: string;
  /** The object it belongs to, from the model's declared `parent`. */
  related: { model: string; id: number } | null;
  actor: Actor;
  /** The request's `changelog_message`, or ''. */
  message: string;
  /** The transaction: what a hook writes commits or rolls back with the change. */
  db: Db;
}

export type ChangeHook = (change: ChangeRecord) => Promise<void> | void;

export interface WriterServices {
  registry: ModelRegistry;
  settings: Settings;
  bus: EventBus;
  changeHooks: ChangeHook[];
}

/** A check a write must pass before it is kept (permissions); throws to refuse. */
export type WriteCheck = (db: Db, model: Model, action: 'add' | 'change', row: Row, previous?: Row) => Promise<void>;

const ACTION_EVENT: Record<ChangeRecord['action'], ModelAction> = { create: 'created', update: 'updated', delete: 'deleted' };

/** The `changelog_message` of a written item (write-only, at most 200 characters). */
export function changelogMessage(body: unknown): string {
  const value = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).changelog_message : undefined;
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw ValidationError.of('changelog_message', 'Not a valid string.');
  if (value.length > 200) throw ValidationError.of('changelog_message', 'Ensure this field has no more than 200 characters.');
  return value;
}

/**
 * Every create, update and delete, from any interface (REST, CLI), goes through a write session: one
 * transaction, change hooks inside it, events published and follow-up work run only after the commit.
 */
export class WriteSession {
  private readonly events: ModelEvent[] = [];
  private readonly followUps: (() => Promise<void>)[] = [];

  constructor(
    readonly db: Db,
    private readonly services: WriterServices,
    readonly actor: Actor,
    private readonly check?: WriteCheck,
  ) {}

  get settings(): Settings {
    return this.services.settings;
  }

  /** Rendering inside the transaction, host-less (event data, snapshots). */
  get context(): RenderContext {
    return { db: this.db, registry: this.services.registry, settings: this.services.settings, baseUrl: '' };
  }

  /** Work to do once the transaction committed (removing files, for instance). */
  afterCommit(work: () => Promise<void>): void {
    this.followUps.push(work);
  }

  /** Model values for the change hooks; null when no hook will read them. */
  private async snapshot(model: Model, row: Row): Promise<JsonObject | null> {
    if (!this.services.changeHooks.length) return null;
    const out: JsonObject = {};
    for (const field of this.services.registry.outputFields(model, 'full')) Object.assign(out, await field.snapshot(row, this.context));
    return out;
  }

  private async changed(model: Model, action: ChangeRecord['action'], row: Row, before: JsonObject | null, message: string): Promise<void> {
    const after = action === 'delete' ? null : await this.snapshot(model, row);
    const display = model.decl.displayLoader
      ? (await loadDisplays(model, [row.id as number], this.context)).get(row.id as number) ?? model.displayOf(row)
      : model.displayOf(row);
    const related = this.parentOf(model, row);
    for (const hook of this.services.changeHooks) {
      await hook({ action, model, id: row.id as number, before, after, display, related, actor: this.actor, message, db: this.db });
    }
    if (this.services.bus.hasListeners && action !== 'delete') {
      const [data] = await renderRows(model, [row], this.context, 'full');
      this.events.push({ action: ACTION_EVENT[action], model: model.key, id: row.id as number, data, requestId: this.actor.requestId });
    }
  }

  private parentOf(model: Model, row: Row): ChangeRecord['related'] {
    const field = model.decl.parent ? model.field(model.decl.parent) : undefined;
    if (field instanceof ForeignKeyField) {
      const id = row[field.column] as number | null;
      return id === null ? null : { model: field.target, id };
    }
    if (field instanceof GenericForeignKeyField) {
      const key = this.services.registry.objectTypes.keyOf(row[field.typeColumn] as number);
      return key ? { model: key, id: row[field.idKey] as number } : null;
    }
    return null;
  }

  async create(model: Model, body: unknown): Promise<Row> {
    const message = changelogMessage(body);
    const values = await parseBody(model, body, { db: this.db, registry: this.services.registry, actor: this.actor }, 'create');
    const row = await insertObject(model, values, this.db);
    await this.check?.(this.db, model, 'add', row);
    await this.changed(model, 'create', row, null, message);
    return row;
  }

  async update(model: Model, instance: Row, body: unknown, mode: WriteMode): Promise<Row> {
    const message = changelogMessage(body);
    const before = await this.snapshot(model, instance);
    const values = await parseBody(model, body, { db: this.db, registry: this.services.registry, instance, actor: this.actor }, mode);
    const row = await updateObject(model, instance.id as number, values, this.db);
    await this.check?.(this.db, model, 'change', row, instance);
    await this.changed(model, 'update', row, before, message);
    return row;
  }

  /** Deletes `rows` and what cascades from them (each logged), or refuses with 409. */
  async delete(model: Model, rows: Row[], messages: Map<number, string> = new Map()): Promise<void> {
    for (const step of await planDeletion(model, rows, this.context)) {
      const ids = step.rows.map((r) => r.id as number);
      const data = this.services.bus.hasListeners ? await renderRows(step.model, step.rows, this.context, 'full') : [];
      for (const [i, row] of step.rows.entries()) {
        const before = await this.snapshot(step.model, row);
        await this.changed(step.model, 'delete', row, before, messages.get(row.id as number) ?? '');
        if (data[i]) this.events.push({ action: 'deleted', model: step.model.key, id: row.id as number, data: data[i], requestId: this.actor.requestId });
      }
      for (const field of this.services.registry.outputFields(step.model, 'full')) await field.cleanup(ids, this.context);
      await step.model.decl.onDelete?.(step.rows, this);
      await this.db(step.model.table).whereIn('id', ids).delete();
    }
  }

  /** Publishes the events and runs the follow-ups; call once the transaction committed. */
  async committed(): Promise<void> {
    await this.services.bus.publish(this.events);
    for (const work of this.followUps) await work();
  }
}

/** Runs `work` in one write session and transaction; after the commit, events and follow-ups. */
export async function writeTransaction<T>(
  knex: Db, services: WriterServices, actor: Actor, work: (session: WriteSession) => Promise<T>, check?: WriteCheck,
): Promise<T> {
  let session: WriteSession | undefined;
  const result = await knex.transaction(async (trx) => {
    session = new WriteSession(trx, services, actor, check);
    return work(session);
  });
  await session!.committed();
  return result;
}
