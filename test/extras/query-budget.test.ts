import { budgetSuite, seededServer, type ListBudgets } from '../helpers/budgets.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedConfiguration } from '../helpers/seed-extras.js';
import { seedIpam } from '../helpers/seed-ipam.js';
import { seedVirtualization } from '../helpers/seed-virtualization.js';
import { seedTenancy } from '../helpers/seed.js';

const server = seededServer(async (db) => {
  await seedTenancy(db, 1000);
  await seedDcim(db, 1000);
  await seedIpam(db, 1000);
  await seedVirtualization(db, 1000);
  await seedConfiguration(db, 1000);
  // A thousand contexts listed first (weight 0), each with a profile and assigned along every dimension; as many export templates.
  await db.raw(`insert into extras_configcontextprofile (name, description, schema, comments, created, last_updated)
    select 'Profile ' || i, '', '{"properties": {}}', '', now(), now() from generate_series(1, 1000) i`);
  await db.raw(`insert into extras_configcontext (name, weight, profile_id, description, is_active, data, created, last_updated)
    select 'Context ' || i, 0, i, '', true, jsonb_build_object('n', i), now(), now() from generate_series(1, 1000) i`);
  const contexts = `select id, row_number() over (order by id) as n from extras_configcontext where name like 'Context %'`;
  for (const [table, column] of [
    ['regions', 'region_id'], ['site_groups', 'sitegroup_id'], ['sites', 'site_id'], ['locations', 'location_id'], ['device_types', 'devicetype_id'],
    ['roles', 'devicerole_id'], ['platforms', 'platform_id'], ['cluster_types', 'clustertype_id'], ['cluster_groups', 'clustergroup_id'],
    ['clusters', 'cluster_id'], ['tenant_groups', 'tenantgroup_id'], ['tenants', 'tenant_id'],
  ]) {
    // The first contexts get the last objects: nodes deep in their trees, as on every other page.
    await db.raw(`insert into extras_configcontext_${table} (configcontext_id, ${column}) select c.id, 1001 - c.n from (${contexts}) c`);
  }
  await db.raw(`insert into extras_configcontext_tags (configcontext_id, tag_id) select c.id, (select min(id) from extras_tag) from (${contexts}) c`);
  await db.raw(`insert into extras_exporttemplate (object_types, name, description, environment_params, template_code, mime_type, file_name, file_extension, as_attachment, created, last_updated)
    select '{dcim.site}', 'Export ' || i, '', '{}', '{{ queryset.count() }}', '', '', '', true, now(), now() from generate_series(1, 1000) i`);
  // A thousand webhooks, each with a rule and a delivery of a site's event.
  await db.raw(`insert into extras_webhook (name, payload_url, created, last_updated) select 'Hook ' || i, 'http://localhost:9000/', now(), now() from generate_series(1, 1000) i`);
  const webhookType = `(select id from core_objecttype where app_label = 'extras' and model = 'webhook')`;
  const siteType = `(select id from core_objecttype where app_label = 'dcim' and model = 'site')`;
  await db.raw(`insert into extras_eventrule (object_types, name, event_types, action_object_type_id, action_object_id, created, last_updated)
    select '{dcim.site}', 'Rule ' || w.id, '{object_created}', ${webhookType}, w.id, now(), now() from extras_webhook w`);
  await db.raw(`insert into extras_webhookdelivery (webhook_id, event_rule_id, event, object_type_id, object_id, request_id, status, attempts, context, created, last_updated)
    select r.action_object_id, r.id, 'object_created', ${siteType}, (select min(id) from dcim_site), '', 'delivered', '[{"attempt": 1}]', '{"event": "created"}', now(), now()
    from extras_eventrule r`);
});

/** SQL statements per extras list request: the same at page sizes 1, 50 and 1000. */
const BUDGETS: ListBudgets = {
  // Thirteen assignments and the tags: the links, then the nested objects (with a tree's depth) of each.
  '/api/extras/config-contexts/': { full: 30, brief: 2 },
  '/api/extras/config-context-profiles/': { full: 3, brief: 2 },
  '/api/extras/config-templates/': { full: 3, brief: 2 },
  '/api/extras/export-templates/': { full: 2, brief: 2 },
  '/api/extras/webhooks/': { full: 3, brief: 2 },
  '/api/extras/event-rules/': { full: 4, brief: 2 },
  '/api/extras/webhook-deliveries/': { full: 5, brief: 2 },
};

budgetSuite('extras list query budgets', server, BUDGETS);
