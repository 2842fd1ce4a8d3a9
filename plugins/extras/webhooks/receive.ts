import { randomBytes } from 'node:crypto';
import { appendTo, provide, serviceToken, type EventClaim, type ObjectEvent, type PluginContext } from 'patchbay';
import { WebhookDelivery } from '../models/webhook-delivery.js';
import { outboxedJobs, storeOutbox, type DeliveryJob, type OutboxDelivery } from './outbox.js';
import { EventRules } from './rules.js';

/** The server's event rules: a service of extras, loaded at setup and kept fresh. */
export const EVENT_RULES = serviceToken<EventRules>('extras.event_rules');
export const DELIVER_JOB = 'extras.deliver_webhook';
/** Jobs enqueued a round trip. */
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

/** Deliveries one job sends: what a write's events make is sent by jobs of this many. */
const JOB_SIZE = 100;

/** A pending delivery as recovery reads it (`job` empty for one recorded before deliveries named their jobs). */
interface Recorded {
  id: number;
  job: string;
  created: Date;
}

/**
 * How a delivery job is enqueued, with attempts and backoff from the settings: under the id its deliveries keep, so
 * that enqueueing it again (recovery at start) is a no-op while the queue holds it.
 */
function deliveryJob(ctx: PluginContext, { job, ids, outbox }: DeliveryJob) {
  const { WEBHOOK_ATTEMPTS, WEBHOOK_RETRY_DELAY } = ctx.settings;
  const description = ids.length === 1 ? `Webhook delivery ${ids[0]}` : `Webhook deliveries ${ids[0]} to ${ids[ids.length - 1]} (${ids.length})`;
  return { data: { deliveries: ids, outbox }, options: { id: job, attempts: WEBHOOK_ATTEMPTS, backoffMs: WEBHOOK_RETRY_DELAY, description } };
}

/**
 * The job of a delivery recorded before deliveries named theirs (a job of its own, under the id it was enqueued
 * with; the creation time in it keeps a delivery of a restored database, which may reuse an id, from being taken for
 * one the queue already ran).
 */
const jobOfOwn = ({ id, created }: Recorded) => `webhook-delivery-${id}-${new Date(created).getTime().toString(36)}`;

/** Enqueues `jobs`, CHUNK a round trip. */
async function enqueue(ctx: PluginContext, jobs: DeliveryJob[]): Promise<void> {
  const all = jobs.map((job) => deliveryJob(ctx, job));
  for (let i = 0; i < all.length; i += CHUNK) await ctx.queue.enqueueAll(DELIVER_JOB, all.slice(i, i + CHUNK));
}

/**
 * Matches a write's events against the rules, once, and leaves one delivery per event and webhook in the outbox, in
 * the write's transaction, JOB_SIZE to a job (a new id each, random: no job run before had it); the jobs are
 * enqueued once it committed, and record their deliveries as they start.
 */
export async function receiveEvents(events: ObjectEvent[], claim: EventClaim, ctx: PluginContext): Promise<void> {
  const rules = eventRules(ctx);
  const deliveries = events.flatMap((event) =>
    rules.matching(event).map((rule): OutboxDelivery => ({
      webhook_id: rule.webhookId,
      event_rule_id: rule.id,
      event: event.type,
      object_type_id: ctx.registry.objectTypes.idOf(event.model),
      object_id: event.id,
      request_id: event.requestId,
      context: contextOf(event, rule.actionData),
    })),
  );
  if (!deliveries.length) return;
  const jobs: { job: string; deliveries: OutboxDelivery[] }[] = [];
  for (let i = 0; i < deliveries.length; i += JOB_SIZE) {
    jobs.push({ job: `webhook-deliveries-${randomBytes(8).toString('hex')}`, deliveries: deliveries.slice(i, i + JOB_SIZE) });
  }
  const stored = await storeOutbox(claim.db, jobs);
  claim.afterCommit(() => enqueue(ctx, stored));
}

/**
 * At start: enqueues every job with deliveries still pending, and every job whose deliveries wait in the outbox (the
 * ids make those the queue holds a no-op).
 */
export async function recoverDeliveries(ctx: PluginContext): Promise<void> {
  const pending = (await ctx.db(WebhookDelivery.table).where('status', 'pending').orderBy('id').select('id', 'job', 'created')) as Recorded[];
  const byJob = new Map<string, number[]>();
  for (const d of pending) appendTo(byJob, d.job || jobOfOwn(d), d.id);
  const outboxed = await outboxedJobs(ctx.db);
  await enqueue(ctx, [...[...byJob].map(([job, ids]) => ({ job, ids })), ...outboxed]);
  const waiting = outboxed.reduce((n, j) => n + j.ids.length, 0);
  if (pending.length || waiting) ctx.log.info(`Enqueued ${pending.length + waiting} pending webhook deliveries`);
}
