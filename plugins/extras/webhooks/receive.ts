import { insertAll, provide, serviceToken, type EventClaim, type ObjectEvent, type PluginContext } from 'patchbay';
import { WebhookDelivery } from '../models/webhook-delivery.js';
import { EventRules } from './rules.js';

/** The server's event rules: a service of extras, loaded at setup and kept fresh. */
export const EVENT_RULES = serviceToken<EventRules>('extras.event_rules');
export const DELIVER_JOB = 'extras.deliver_webhook';
/** Rows per insert: well under PostgreSQL's 65,535 bind parameters. */
const CHUNK = 2000;

/** Loads the event rules and keeps them fresh: after every committed change of a rule, here or in another process. */
export async function watchEventRules(ctx: PluginContext): Promise<void> {
  const rules = eventRules(ctx);
  await rules.load();
  ctx.watch('extras.eventrule', () => rules.load());
}

export const eventRulesService = provide(EVENT_RULES, (ctx) => new EventRules(ctx.db, (msg) => ctx.log.warn(msg)));
export const eventRules = (ctx: PluginContext): EventRules => ctx.services.get(EVENT_RULES);

/** NetBox's `event` of the context: `created`, `updated`, `deleted` (job events keep their name). */
const CONTEXT_EVENT: Record<string, string> = { object_created: 'created', object_updated: 'updated', object_deleted: 'deleted' };

/** The template context of an event for one rule, in NetBox's key order (the default body). */
function contextOf(event: ObjectEvent, actionData: Record<string, unknown> | null) {
  return {
    event: CONTEXT_EVENT[event.type] ?? event.type,
    timestamp: event.timestamp,
    object_type: event.model,
    model: event.model.split('.')[1],
    username: event.username,
    request_id: event.requestId,
    data: { ...(actionData ?? {}), ...event.data },
    snapshots: event.snapshots,
  };
}

/** A recorded delivery, as its job names it. */
interface Recorded {
  id: number;
  created: Date;
}

/**
 * How a delivery is enqueued, with attempts and backoff from the settings. Its job id makes enqueueing it twice a
 * no-op; the creation time in it keeps a delivery of a restored or recreated database, which may reuse an id, from
 * being taken for one the queue already ran.
 */
function deliveryJob(ctx: PluginContext, { id, created }: Recorded) {
  const { WEBHOOK_ATTEMPTS, WEBHOOK_RETRY_DELAY } = ctx.settings;
  const jobId = `webhook-delivery-${id}-${new Date(created).getTime().toString(36)}`;
  return { data: { delivery: id }, options: { id: jobId, attempts: WEBHOOK_ATTEMPTS, backoffMs: WEBHOOK_RETRY_DELAY, description: `Webhook delivery ${id}` } };
}

async function enqueue(ctx: PluginContext, deliveries: Recorded[]): Promise<void> {
  await ctx.queue.enqueueAll(DELIVER_JOB, deliveries.map((d) => deliveryJob(ctx, d)));
}

/**
 * Matches a write's events against the rules, once, and records one delivery per event and webhook in the
 * transaction that takes the events from the outbox; they are enqueued once it committed.
 */
export async function receiveEvents(events: ObjectEvent[], claim: EventClaim, ctx: PluginContext): Promise<void> {
  const rules = eventRules(ctx);
  const rows = events.flatMap((event) =>
    rules.matching(event).map((rule) => ({
      webhook_id: rule.webhookId,
      event_rule_id: rule.id,
      event: event.type,
      object_type_id: ctx.registry.objectTypes.idOf(event.model),
      object_id: event.id,
      request_id: event.requestId,
      status: 'pending',
      attempts: '[]',
      context: JSON.stringify(contextOf(event, rule.actionData)),
    })),
  );
  const recorded = await insertAll<Recorded>(claim.db, WebhookDelivery.table, rows, {
    returning: ['id', 'created'], now: ['created', 'last_updated'], json: ['attempts', 'context'],
  });
  if (recorded.length) claim.afterCommit(() => enqueue(ctx, recorded));
}

/** At start: enqueues every delivery still pending (the job ids make those the queue holds a no-op). */
export async function recoverDeliveries(ctx: PluginContext): Promise<void> {
  const pending = (await ctx.db(WebhookDelivery.table).where('status', 'pending').orderBy('id').select('id', 'created')) as Recorded[];
  for (let i = 0; i < pending.length; i += CHUNK) await enqueue(ctx, pending.slice(i, i + CHUNK));
  if (pending.length) ctx.log.info(`Enqueued ${pending.length} pending webhook deliveries`);
}
