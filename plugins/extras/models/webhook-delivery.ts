import { defineModel, f } from 'patchbay';
import { DeliveryStatus } from '../choices.js';

/**
 * One event sent (or to be sent) to one webhook, with every attempt: what NetBox's users lack. Recorded by its
 * delivery job from the outbox its write left it in, and written by the job, in SQL of their own (not change-logged);
 * read-only through the API.
 */
export const WebhookDelivery = defineModel('extras.webhookdelivery', {
  path: 'webhook-deliveries',
  verboseName: 'webhook delivery',
  verboseNamePlural: 'webhook deliveries',
  readOnly: true,
  graphql: false,
  fields: {
    webhook: f.fk('extras.webhook', { onDelete: 'cascade', related: 'deliveries' }),
    event_rule: f.fk('extras.eventrule', { nullable: true, onDelete: 'set null' }),
    event: f.string({ max: 50, helpText: 'The event type (object_created, object_updated, object_deleted).' }),
    object: f.generic({ onDelete: 'keep' }),
    request_id: f.string({ max: 36, blank: true }),
    status: f.choice(DeliveryStatus, { default: 'pending' }),
    attempts: f.json({ default: [], helpText: 'Every attempt: started, duration_ms, status_code, error and the first bytes of the response.' }),
    completed: f.datetime({ nullable: true, helpText: 'When it was delivered or failed for good.' }),
    job: f.string({ max: 40, blank: true, helpText: 'The background task that sends it (/api/core/background-tasks/<job>/), with the other deliveries of its write.' }),
    sending: f.integer({ nullable: true, helpText: 'The attempt under way, until its outcome is recorded.' }),
    context: f.json({ keepOrder: true, helpText: 'The template context (the default body): event, timestamp, object_type, model, username, request_id, data, snapshots.' }),
  },
  brief: ['created', 'event', 'status'],
  ordering: ['-created', '-id'],
  display: (row) => `${String(row.event)} #${String(row.id)} (${DeliveryStatus.label(row.status as string)})`,
});
