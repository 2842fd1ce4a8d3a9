import type { Model } from '../model/model.js';
import type { Db, FieldRenderer, JsonObject, RenderContext, Row } from '../base/types.js';
import type { Actor } from './context.js';

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
  /** The item's `changelog_message`, or ''. */
  message: string;
  /** The transaction: what a hook writes commits or rolls back with the change. */
  db: Db;
}

/** Receives every change of one write step at once (one model, one action), inside the transaction. */
export type ChangeHook = (changes: ChangeRecord[]) => Promise<void> | void;

/** Model values of `rows` for the change log (ids for relations), each field's part prepared once for all rows. */
export async function snapshotRows(model: Model, rows: Row[], ctx: RenderContext): Promise<Map<number, JsonObject>> {
  const writers: FieldRenderer[] = [];
  for (const field of ctx.registry.outputFields(model, 'full')) {
    const writer = await field.snapshot(rows, ctx);
    if (writer) writers.push(writer);
  }
  return new Map(
    rows.map((row) => {
      const out: JsonObject = {};
      for (const write of writers) write(row, out);
      return [row.id as number, out];
    }),
  );
}
