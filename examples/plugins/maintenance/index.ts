import { integer, min, object } from 'superstruct';
import { Services, baseUrl, definePlugin, renderRows } from 'patchbay';
import { MaintenanceWindow } from './models/window.js';

interface MaintenanceConfig {
  /** How many days ahead `upcoming/` looks. */
  horizon_days: number;
}

/**
 * An example third-party plugin, written only against Patchbay's public API. Enable it with
 * `PLUGINS=["./examples/plugins/maintenance/index.ts"]`; it serves /api/plugins/maintenance/.
 */
export default definePlugin<MaintenanceConfig>({
  name: 'maintenance',
  label: 'Maintenance windows',
  version: '1.0.0',
  kernel: '^0.1.0',
  config: { schema: object({ horizon_days: min(integer(), 1) }), defaults: { horizon_days: 14 } },
  models: [MaintenanceWindow],
  migrations: new URL('./migrations/', import.meta.url),
  // New windows that ask for it are announced in the background, after their transaction committed.
  events(event, ctx) {
    if (event.model === MaintenanceWindow.key && event.action === 'created' && event.data?.notify === true) {
      return ctx.queue.enqueue('maintenance.announce', { id: event.id });
    }
  },
  jobs: {
    async announce(data, ctx) {
      const { id } = data as { id: number };
      const db = ctx.container.resolve(Services.database).knex;
      await db(MaintenanceWindow.table).where({ id }).update({ announced: db.fn.now() });
    },
  },
  routes(router, ctx) {
    // Windows starting within the configured horizon, soonest first.
    router.get('/upcoming/', async (req, res) => {
      const db = ctx.container.resolve(Services.database).knex;
      const rows = await db(MaintenanceWindow.table)
        .where('starts', '>=', db.fn.now())
        .andWhereRaw(`starts < now() + make_interval(days => ?)`, [ctx.config.horizon_days])
        .whereNot('status', 'cancelled')
        .orderBy('starts');
      const results = await renderRows(MaintenanceWindow, rows, { db, registry: ctx.registry, settings: ctx.settings, baseUrl: baseUrl(req) }, 'brief');
      res.json({ horizon_days: ctx.config.horizon_days, count: results.length, results });
    });
  },
});
