import { budgetSuite, seededServer } from '../helpers/budgets.js';
import { seedTenancy } from '../helpers/seed.js';

const server = seededServer(async (db) => {
  await seedTenancy(db, 1000);
  // A thousand ended jobs, each about a tenant and run by the admin, with a result and a log.
  const tenantType = `(select id from core_objecttype where app_label = 'tenancy' and model = 'tenant')`;
  await db.raw(`insert into core_job (object_type_id, object_id, name, status, started, completed, user_id, data, error, job_id, log_entries, created, last_updated)
    select ${tenantType}, t.id, 'chores.audit', 'completed', now(), now(), (select min(id) from users_user), '{"checked": 3}', '', gen_random_uuid()::text,
      '[{"level": "info", "message": "done"}]', now(), now()
    from tenancy_tenant t`);
});

budgetSuite('core list query budgets', server, {
  '/api/core/jobs/': { full: 5, brief: 4 },
}, {
  '/api/core/jobs/': { query: 'status=completed&object_type=tenancy.tenant&q=audit', budget: 5 },
});
