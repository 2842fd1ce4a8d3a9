import type { Knex } from '@mikro-orm/knex';
import type { Database } from '../db/database.js';
import type { ChangeCounts } from '../write/session.js';
import type { Metrics } from './registry.js';

/** prometheus_client's default buckets, which django-prometheus's query durations use. */
const QUERY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** Django's name of the error a SQLSTATE class stands for, as django_db_errors_total labels it. */
function errorType(code: unknown): string {
  const sqlClass = typeof code === 'string' ? code.slice(0, 2) : '';
  if (sqlClass === '23') return 'IntegrityError';
  if (sqlClass === '22') return 'DataError';
  if (sqlClass === '42') return 'ProgrammingError';
  if (['08', '40', '53', '57', '58'].includes(sqlClass)) return 'OperationalError';
  return 'DatabaseError';
}

const DB = { alias: 'default', vendor: 'postgresql' };

/** The database families: statements, their time and errors, connections, migrations (django-prometheus's names). */
export function databaseMetrics(metrics: Metrics, db: Database): void {
  const executed = metrics.counter({ name: 'django_db_execute_total', help: 'Counter of executed statements by database and vendor, including bulk executions.', labels: ['alias', 'vendor'] });
  const duration = metrics.histogram({
    name: 'django_db_query_duration_seconds', help: 'Histogram of query duration by database and vendor.', labels: ['alias', 'vendor'], buckets: QUERY_BUCKETS,
  });
  const errors = metrics.counter({ name: 'django_db_errors_total', help: 'Counter of execution errors by database, vendor and exception type.', labels: ['alias', 'vendor', 'type'] });
  const connections = metrics.counter({ name: 'django_db_new_connections_total', help: 'Counter of created connections by database and by vendor.', labels: ['alias', 'vendor'] });
  // Both gauges are read in one scrape: the pending migrations are read once for them.
  let pending: { at: number; count: Promise<number> } | undefined;
  const unapplied = () => {
    if (!pending || performance.now() - pending.at > 1000) pending = { at: performance.now(), count: db.pendingMigrations().then((names) => names.length) };
    return pending.count;
  };
  metrics.gauge({
    name: 'django_migrations_applied_total', help: 'Count of applied migrations by database connection.', labels: ['connection'],
    collect: async (gauge) => gauge.set({ connection: 'default' }, db.migrationNames.length - (await unapplied())),
  });
  metrics.gauge({
    name: 'django_migrations_unapplied_total', help: 'Count of unapplied migrations by database connection.', labels: ['connection'],
    collect: async (gauge) => gauge.set({ connection: 'default' }, await unapplied()),
  });

  const started = new Map<string, number>();
  const knex: Knex = db.knex;
  knex.on('query', (query: { __knexQueryUid?: string }) => {
    // BEGIN and COMMIT carry no id and get no response event; Django does not count them as executions either.
    if (!query.__knexQueryUid) return;
    executed.inc(DB);
    started.set(query.__knexQueryUid, performance.now());
  });
  const ended = (query: { __knexQueryUid?: string }) => {
    const uid = query.__knexQueryUid;
    const start = uid === undefined ? undefined : started.get(uid);
    if (start === undefined) return;
    started.delete(uid!);
    duration.observe(DB, (performance.now() - start) / 1000);
  };
  knex.on('query-response', (_response: unknown, query: { __knexQueryUid?: string }) => ended(query));
  knex.on('query-error', (err: { code?: unknown }, query: { __knexQueryUid?: string }) => {
    ended(query);
    errors.inc({ ...DB, type: errorType(err?.code) });
  });
  db.onConnect(() => connections.inc(DB));
}

/** django-prometheus's model families (NetBox counts them from its change signals), by model name (`site`). */
export function changeMetrics(metrics: Metrics): (counts: ChangeCounts) => void {
  const families = {
    create: metrics.counter({ name: 'django_model_inserts_total', help: 'Number of insert operations by model.', labels: ['model'] }),
    update: metrics.counter({ name: 'django_model_updates_total', help: 'Number of update operations by model.', labels: ['model'] }),
    delete: metrics.counter({ name: 'django_model_deletes_total', help: 'Number of delete operations by model.', labels: ['model'] }),
  };
  return (counts) => {
    for (const [key, byAction] of counts) {
      const model = key.split('.')[1];
      for (const action of ['create', 'update', 'delete'] as const) if (byAction[action]) families[action].inc({ model }, byAction[action]);
    }
  };
}
