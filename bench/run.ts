import { createServer } from '../kernel/server.js';
import { builtinPlugins } from '../plugins/index.js';
import { startBaseline } from './baseline.js';
import { startPostgres } from '../test/helpers/services.js';
import { measure, report } from './harness.js';

/**
 * `npm run bench`: Patchbay against hand-written SQL in the same process and the same run, reported as
 * requests/s and as a ratio. BENCH_SECONDS sets the length of each measurement (default 5).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
// A throwaway embedded PostgreSQL, or the server named by TEST_DATABASE_URL.
const database = await startPostgres();
const server = await createServer({
  builtins: builtinPlugins,
  env: { PATCHBAY_CONFIG: '' },
  settings: { DATABASE_URL: database.adminUrl, PORT: 0, LOG_LEVEL: 'error', SECRET_KEY: 'bench' },
});
try {
  const base = await server.listen();
  const db = server.db.knex;
  await db.raw(`truncate tenancy_tenant, tenancy_tenantgroup restart identity cascade`);
  await db.raw(`insert into tenancy_tenantgroup (name, slug, parent_id, created, last_updated)
    select 'Group ' || i, 'group-' || i, case when i > 10 then (i % 10) + 1 end, now(), now() from generate_series(1, 100) i`);
  await db.raw(`insert into tenancy_tenant (name, slug, group_id, description, created, last_updated)
    select 'Tenant ' || i, 'tenant-' || i, (i % 100) + 1, 'Tenant number ' || i, now(), now() from generate_series(1, 1000) i`);

  for (const brief of [false, true]) {
    const baseline = await startBaseline(db, brief);
    try {
      const rows = [
        await measure('hand-written SQL (baseline)', `${baseline.url}?limit=1000`, seconds),
        await measure('Patchbay GET /api/tenancy/tenants/', `${base}/api/tenancy/tenants/?limit=1000${brief ? '&brief=1' : ''}`, seconds),
      ];
      report(`List 1000 tenants, ${brief ? 'brief' : 'full'} (${seconds} s each, 4 clients)`, rows);
    } finally {
      await baseline.close();
    }
  }
} finally {
  await server.close();
  await database.stop();
}
process.exit(0);
