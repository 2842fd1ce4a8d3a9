import { insertAll, writeBehind, type ChangeRecord, type FilterExtension, type JobRun, type PluginContext, type QueryFilter, type SqlCondition } from 'patchbay';
import { ObjectChange } from './models/object-change.js';
import { WebhookDelivery } from './models/webhook-delivery.js';

/**
 * Writes the change records of one write step (one model, one action) in one statement, in the change's transaction;
 * written behind: the write goes on (its other steps, its answer) while PostgreSQL stores them.
 */
export async function recordChanges(changes: ChangeRecord[], ctx: PluginContext): Promise<void> {
  const logged = changes.filter((c) => c.model.features.has('changelog'));
  if (!logged.length) return;
  const types = ctx.registry.objectTypes;
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
  const { db } = logged[0];
  await writeBehind(db, insertAll(db, ObjectChange.table,
    logged.map((change) => ({
      user_id: change.actor.userId,
      user_name: change.actor.username,
      request_id: change.actor.requestId,
      action: change.action,
      changed_object_type_id: types.idOf(change.model.key),
      changed_object_id: change.id,
      related_object_type_id: change.related ? types.idOf(change.related.model) : null,
      related_object_id: change.related?.id ?? null,
      object_repr: change.display.slice(0, 200),
      message: change.message,
      prechange_data: json(change.before),
      postchange_data: json(change.after),
    })),
    { now: ['created', 'last_updated'], json: ['prechange_data', 'postchange_data'] },
  ));
}

/** `created_by_request`, `updated_by_request` and `modified_by_request` on every change-logged model. */
export function requestFilters(ctx: PluginContext): FilterExtension {
  const byRequest = (actions: string[]): QueryFilter => ({
    suffixes: [],
    build: (_suffix, values) => {
      const condition: SqlCondition = (qb, alias, model, db) => {
        qb.whereIn(
          `${alias}.id`,
          db(ObjectChange.table)
            .select('changed_object_id')
            .where('changed_object_type_id', ctx.registry.objectTypes.idOf(model.key) ?? -1)
            .whereIn('action', actions)
            .whereIn('request_id', values),
        );
      };
      return { op: 'sql', condition };
    },
  });
  return {
    appliesTo: (model) => model.features.has('changelog'),
    filters: () => ({
      created_by_request: byRequest(['create']),
      updated_by_request: byRequest(['update']),
      modified_by_request: byRequest(['create', 'update']),
    }),
  };
}

/**
 * Deletes change records older than CHANGELOG_RETENTION days and ended webhook deliveries older than
 * WEBHOOK_DELIVERY_RETENTION days (0 keeps them); says what it did through `say`. Bulk deletes: they are not
 * themselves change-logged.
 */
async function prune(ctx: PluginContext, say: (message: string) => void): Promise<{ changes: number; deliveries: number }> {
  const older = (days: number) => ctx.db.raw(`now() - make_interval(days => ?)`, [days]);
  const { CHANGELOG_RETENTION: changeDays, WEBHOOK_DELIVERY_RETENTION: deliveryDays } = ctx.settings;
  let changes = 0;
  let deliveries = 0;
  if (changeDays) {
    changes = await ctx.db(ObjectChange.table).where('time', '<', older(changeDays)).delete();
    say(`Deleted ${changes} change records older than ${changeDays} days.`);
  } else say('CHANGELOG_RETENTION is 0: change records are kept forever.');
  if (deliveryDays) {
    deliveries = await ctx.db(WebhookDelivery.table).whereNot('status', 'pending').where('completed', '<', older(deliveryDays)).delete();
    say(`Deleted ${deliveries} webhook deliveries ended more than ${deliveryDays} days ago.`);
  } else say('WEBHOOK_DELIVERY_RETENTION is 0: webhook deliveries are kept forever.');
  return { changes, deliveries };
}

/** `manage housekeeping`. */
export async function housekeeping(ctx: PluginContext): Promise<number> {
  await prune(ctx, (message) => process.stdout.write(`${message}\n`));
  return 0;
}

/** The daily housekeeping job (a system job in /api/core/jobs/). */
export async function housekeepingJob(_data: unknown, ctx: PluginContext, run: JobRun): Promise<{ changes: number; deliveries: number }> {
  return prune(ctx, (message) => run.log('info', message));
}
