import { afterAll, beforeAll } from 'vitest';
import { budgetSuite, type FilteredBudgets, type ListBudgets } from '../helpers/budgets.js';
import { EXAMPLE_PLUGIN, startServer, type TestServer } from '../helpers/server.js';
import { seedTenancy } from '../helpers/seed.js';

let t: TestServer;

beforeAll(async () => {
  t = await startServer({ plugins: [EXAMPLE_PLUGIN] });
  await seedTenancy(t.server.db.knex, 1000);
  await t.server.db.knex.raw(`insert into maintenance_window (name, starts, tenant_id, created, last_updated)
    select 'Window ' || i, now() + make_interval(days => i), i, now(), now() from generate_series(1, 1000) i`);
  await t.server.db.knex.raw(`insert into maintenance_task (window_id, name, created, last_updated)
    select i, 'Task ' || i, now(), now() from generate_series(1, 1000) i`);
  // A thousand ended jobs, each about a tenant and run by the admin, with a result and a log.
  await t.server.db.knex.raw(`insert into core_job (object_type_id, object_id, name, status, started, completed, user_id, data, error, job_id, log_entries, created, last_updated)
    select (select id from core_objecttype where app_label = 'tenancy' and model = 'tenant'), t.id, 'maintenance.announce', 'completed', now(), now(),
      (select min(id) from users_user), '{"checked": 3}', '', gen_random_uuid()::text, '[{"level": "info", "message": "done"}]', now(), now()
    from tenancy_tenant t`);
});
afterAll(async () => {
  await t?.close();
});

/**
 * SQL statements per list request (one authenticates the token; full representations load tags and custom field definitions in one each):
 * the same at every page size, and within NetBox-beating budgets.
 */
const BUDGETS: ListBudgets = {
  '/api/tenancy/tenant-groups/': { full: 6, brief: 4 },
  '/api/tenancy/tenants/': { full: 5, brief: 2 },
  '/api/tenancy/contact-groups/': { full: 6, brief: 4 },
  '/api/tenancy/contact-roles/': { full: 3, brief: 2 },
  '/api/tenancy/contacts/': { full: 5, brief: 2 },
  '/api/tenancy/contact-assignments/': { full: 8, brief: 6 },
  '/api/plugins/maintenance/windows/': { full: 5, brief: 2 },
  '/api/plugins/maintenance/tasks/': { full: 3, brief: 2 },
  '/api/core/jobs/': { full: 4, brief: 3 },
};

/** Filters add a fixed cost too: one query validates the related objects a filter names. */
const FILTERED: FilteredBudgets = {
  '/api/tenancy/tenants/': { query: 'group_id=1&group_id=2&q=tenant&name__n=x&created__gte=2000-01-01', budget: 6 },
  '/api/tenancy/contacts/': { query: 'group=cgroup-1&q=contact', budget: 6 },
  '/api/plugins/maintenance/windows/': { query: 'tenant=tenant-5&impact__gte=0&status=scheduled', budget: 6 },
  '/api/core/jobs/': { query: 'status=completed&object_type=tenancy.tenant&q=announce', budget: 4 },
};

budgetSuite('list query budgets', () => t, BUDGETS, FILTERED);
