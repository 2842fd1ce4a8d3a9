import { Services, type ChangeRecord, type FilterExtension, type PluginContext, type QueryFilter, type SqlCondition } from '../../kernel/index.js';
import { ObjectChange } from './models/object-change.js';

/** Writes the change record of `change` in the change's own transaction. */
export async function recordChange(change: ChangeRecord, ctx: PluginContext): Promise<void> {
  if (!change.model.features.has('changelog')) return;
  const types = ctx.registry.objectTypes;
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
  await change.db(ObjectChange.table).insert({
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
    created: change.db.fn.now(),
    last_updated: change.db.fn.now(),
  });
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

/** `manage housekeeping`: deletes change records older than CHANGELOG_RETENTION days (0 keeps them). */
export async function housekeeping(ctx: PluginContext): Promise<number> {
  const days = ctx.settings.CHANGELOG_RETENTION;
  if (!days) {
    process.stdout.write('CHANGELOG_RETENTION is 0: change records are kept forever.\n');
    return 0;
  }
  const db = ctx.container.resolve(Services.database).knex;
  const deleted = await db(ObjectChange.table).where('time', '<', db.raw(`now() - make_interval(days => ?)`, [days])).delete();
  process.stdout.write(`Deleted ${deleted} change records older than ${days} days.\n`);
  return 0;
}
