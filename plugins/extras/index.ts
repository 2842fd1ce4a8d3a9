import { definePlugin, f, type Field, type Model } from 'patchbay';
import { housekeeping, housekeepingJob, recordChanges, requestFilters } from './changelog.js';
import { customFieldFilters } from './custom-field-filters.js';
import { CUSTOM_FIELD_FILTER_TYPES, customFieldDataFilter } from './custom-field-graphql.js';
import { ConfigContextField } from './config-context/field.js';
import { extrasDemoSteps } from './demo.js';
import { CustomFieldsField } from './fields/custom-fields.js';
import { TagsField } from './fields/tags.js';
import { ConfigContext, ConfigContextProfile } from './models/config-context.js';
import { CustomField, CustomFieldChoiceSet } from './models/custom-field.js';
import { ImageAttachment } from './models/image-attachment.js';
import { JournalEntry } from './models/journal-entry.js';
import { ObjectChange } from './models/object-change.js';
import { Tag } from './models/tag.js';
import { ConfigTemplate, ExportTemplate } from './models/templates.js';
import { renderConfigRoute, renderTemplateRoute } from './rendering/config.js';
import { exportList } from './rendering/export.js';
import { RENDER_CONFIG, renderOperation } from './rendering/operations.js';
import { tagFilters } from './tag-filters.js';
import { abandonedDeliveries, deliverWebhooks } from './webhooks/deliver.js';
import { keepDefinitions } from './custom-values.js';
import { deliveryMetrics } from './webhooks/delivery-metrics.js';
import { deliverySubjects } from './webhooks/subjects.js';
import { eventRules, eventRulesService, receiveEvents, recoverDeliveries, watchEventRules } from './webhooks/receive.js';
import { EventRule } from './models/event-rule.js';
import { Webhook } from './models/webhook.js';
import { WebhookDelivery } from './models/webhook-delivery.js';

/** What a config template lists of the objects using it (NetBox's related names). */
const TEMPLATE_USERS: Record<string, string> = { 'dcim.devicerole': 'device_roles' };

/** Config templates for the models rendering with one; config contexts for the devices and VMs that have them. */
function configuration(model: Model): Record<string, Field> {
  return {
    ...(model.features.has('configTemplates')
      ? { config_template: f.fk('extras.configtemplate', { nullable: true, onDelete: 'protect', related: TEMPLATE_USERS[model.key] ?? `${model.name}s` }) }
      : {}),
    ...(model.features.has('configContexts') ? { config_context: new ConfigContextField() } : {}),
  };
}

/**
 * The change log, tags, custom fields, journal and image attachments, for every model that declares the feature;
 * config contexts and templates, which are assigned to objects of dcim, virtualization and tenancy.
 */
export default definePlugin({
  name: 'extras',
  label: 'Extras',
  version: '0.1.0',
  kernel: '^0.1.0',
  basePath: '/api/extras/',
  dependencies: ['users', 'tenancy', 'dcim', 'virtualization'],
  models: [
    ObjectChange, Tag, CustomFieldChoiceSet, CustomField, JournalEntry, ImageAttachment,
    ConfigContextProfile, ConfigContext, ConfigTemplate, ExportTemplate, Webhook, EventRule, WebhookDelivery,
  ],
  migrations: new URL('./migrations/', import.meta.url),
  // NetBox 4.1 moved the change log to the core app; clients of either release find it.
  aliases: [{ path: '/api/core/object-changes/', model: ObjectChange }],
  contributes: (model) => ({
    ...configuration(model),
    ...(model.features.has('tags') ? { tags: new TagsField() } : {}),
    ...(model.features.has('customFields') ? { custom_fields: new CustomFieldsField() } : {}),
  }),
  // Custom field data filters in GraphQL, NetBox's way; tags filter as the relation they are.
  graphql: (ctx) => ({ typeDefs: CUSTOM_FIELD_FILTER_TYPES, filters: [customFieldDataFilter(ctx.db, ctx.registry)] }),
  changes: recordChanges,
  // Event rules turn changes into webhook deliveries, left in the outbox in the write's transaction, their jobs enqueued after its commit.
  events: {
    wants: (model, type, ctx) => eventRules(ctx).wants(model, type),
    receive: receiveEvents,
    recover: recoverDeliveries,
  },
  jobs: { deliver_webhook: { run: deliverWebhooks, abandoned: abandonedDeliveries, subjects: deliverySubjects }, housekeeping: housekeepingJob },
  schedule: { housekeeping: 1440 },
  routes(router, ctx) {
    router.post('/config-templates/:id/render/', renderTemplateRoute(ctx));
  },
  operations: {
    'POST /config-templates/{id}/render/': renderOperation('Render this template', 'The body is the whole context (with the models by app label).'),
  },
  // NetBox's render-config of devices and virtual machines: their config template, rendered with their config context.
  actions: ['dcim.device', 'virtualization.virtualmachine'].map((model) => ({
    model, name: 'render-config', method: 'post', handler: (ctx, m) => renderConfigRoute(ctx, m.key), operation: RENDER_CONFIG,
  })),
  listOutputs: { export: exportList },
  demo: { sizes: {}, steps: () => extrasDemoSteps() },
  provides: [eventRulesService],
  async setup(ctx) {
    // Declared at start, so that /metrics shows the families before the first delivery.
    deliveryMetrics(ctx);
    await watchEventRules(ctx);
    await keepDefinitions(ctx);
    ctx.filters.extend(requestFilters(ctx));
    ctx.filters.extend(tagFilters);
    ctx.filters.extend(customFieldFilters);
  },
  commands: {
    housekeeping: {
      usage: 'housekeeping', help: 'Delete change records older than CHANGELOG_RETENTION days and webhook deliveries older than WEBHOOK_DELIVERY_RETENTION days.',
      run: (_args, ctx) => housekeeping(ctx),
    },
  },
});
