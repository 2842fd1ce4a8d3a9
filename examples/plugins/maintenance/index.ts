import { integer, min, object } from 'superstruct';
import { and, cmp, definePlugin, not } from 'patchbay';
import { MaintenanceTask } from './models/task.js';
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
  description: 'Planned maintenance windows of sites and devices, with their checklists',
  author: 'The Patchbay authors',
  authorEmail: 'patchbay@example.com',
  version: '1.0.0',
  kernel: '^0.1.0',
  dependencies: ['tenancy'],
  config: { schema: object({ horizon_days: min(integer(), 1) }), defaults: { horizon_days: 14 } },
  models: [MaintenanceWindow, MaintenanceTask],
  migrations: new URL('./migrations/', import.meta.url),
  // New windows that ask for it are announced in the background, after their transaction committed.
  events: {
    wants: (model, type) => model === MaintenanceWindow.key && type === 'object_created',
    receive(events, claim, ctx) {
      for (const event of events.filter((e) => e.data.notify === true)) {
        // The job's id makes a second enqueue of the same announcement a no-op.
        claim.afterCommit(() => ctx.queue.enqueue('maintenance.announce', { id: event.id }, { id: `maintenance.announce:${event.id}` }));
      }
    },
  },
  jobs: {
    // The job writes as the system: validated, change-logged and evented like any API write. `announced` is
    // read-only to clients; an internal write may set it.
    async announce(data, ctx) {
      const { id } = data as { id: number };
      await ctx.system.write((s) =>
        s.update(MaintenanceWindow, [{ id, body: { announced: new Date().toISOString() } }], 'partial', { internal: true, missing: 'skip' }),
      );
    },
  },
  // GraphQL derives the windows' and tasks' types, filters and lists from the declarations; this adds one field.
  graphql: (ctx) => ({
    fields: [
      {
        model: MaintenanceWindow,
        name: 'upcoming',
        type: 'Boolean!',
        description: 'Whether the window starts within the configured horizon.',
        resolve: (row) => {
          const starts = new Date(row.starts as string | Date).getTime();
          return starts >= Date.now() && starts < Date.now() + ctx.config.horizon_days * 86_400_000 && row.status !== 'cancelled';
        },
      },
    ],
  }),
  operations: {
    'GET /upcoming/': {
      summary: 'Windows starting within the horizon, soonest first',
      responses: { '200': { description: 'The horizon and the windows', schema: { type: 'object', additionalProperties: true } } },
    },
  },
  routes(router, ctx) {
    // Windows starting within the configured horizon, soonest first: what the requesting user may view.
    router.get('/upcoming/', async (req, res) => {
      const reader = ctx.as(req);
      const now = new Date();
      const horizon = new Date(now.getTime() + ctx.config.horizon_days * 86_400_000);
      const rows = await reader.list(MaintenanceWindow, {
        where: and([cmp(['starts'], 'gte', now.toISOString()), cmp(['starts'], 'lt', horizon.toISOString()), not(cmp(['status'], 'exact', 'cancelled'))]),
        ordering: ['starts'],
        renderedAs: 'brief',
      });
      const results = await reader.render(MaintenanceWindow, rows, { mode: 'brief' });
      res.json({ horizon_days: ctx.config.horizon_days, count: results.length, results });
    });
  },
});
