import { defineChoices } from 'patchbay';

export const ChangeAction = defineChoices([
  ['create', 'Created'],
  ['update', 'Updated'],
  ['delete', 'Deleted'],
]);

export const JournalKind = defineChoices([
  ['info', 'Info'],
  ['success', 'Success'],
  ['warning', 'Warning'],
  ['danger', 'Danger'],
]);

export const CustomFieldType = defineChoices([
  ['text', 'Text'],
  ['longtext', 'Text (long)'],
  ['integer', 'Integer'],
  ['decimal', 'Decimal'],
  ['boolean', 'Boolean (true/false)'],
  ['date', 'Date'],
  ['datetime', 'Date & time'],
  ['url', 'URL'],
  ['json', 'JSON'],
  ['select', 'Selection'],
  ['multiselect', 'Multiple selection'],
  ['object', 'Object'],
  ['multiobject', 'Multiple objects'],
]);

export const FilterLogic = defineChoices([
  ['disabled', 'Disabled'],
  ['loose', 'Loose'],
  ['exact', 'Exact'],
]);

export const WebhookHttpMethod = defineChoices([
  ['GET', 'GET'],
  ['POST', 'POST'],
  ['PUT', 'PUT'],
  ['PATCH', 'PATCH'],
  ['DELETE', 'DELETE'],
], { name: 'WebhookHttpMethodEnum', prefix: '' });

export const EventRuleAction = defineChoices([
  ['webhook', 'Webhook'],
  ['script', 'Script'],
  ['notification', 'Notification'],
], { name: 'EventRuleActionEnum', prefix: '' });

/** What became of a webhook delivery: waiting for (another) attempt, delivered, or failed for good. */
export const DeliveryStatus = defineChoices([
  ['pending', 'Pending'],
  ['delivered', 'Delivered'],
  ['failed', 'Failed'],
]);
