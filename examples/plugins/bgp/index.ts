import { definePlugin, struct } from 'patchbay';
import { Community } from './models/community.js';
import { RoutingPolicy } from './models/routing-policy.js';
import { Session, SessionStatus } from './models/session.js';

interface BgpConfig {
  /** The AS number of this network, which the summary reports beside the sessions. */
  local_as: number;
  /** The status of a session created without one. */
  default_status: string;
}

/**
 * BGP sessions, routing policies and communities: an example plugin that is an npm package of its own, installed by
 * `npm install` and enabled as `PLUGINS=patchbay-bgp` (or by the path of its folder). It imports only `patchbay`.
 */
export default definePlugin<BgpConfig>({
  name: 'bgp',
  label: 'BGP',
  description: 'BGP sessions, routing policies and communities',
  author: 'The Patchbay authors',
  version: '1.0.0',
  kernel: '^0.1.0',
  dependencies: ['dcim', 'ipam'],
  config: {
    schema: struct.object({ local_as: struct.max(struct.min(struct.integer(), 1), 4294967295), default_status: struct.enums(SessionStatus.choices.map(([value]) => String(value))) }),
    defaults: { local_as: 65000, default_status: 'active' },
  },
  models: [Community, RoutingPolicy, Session],
  migrations: new URL('./migrations/', import.meta.url),
  operations: {
    'GET /summary/': {
      summary: 'The local AS and how many sessions the user may view, by status',
      responses: { '200': { description: 'The summary', schema: { type: 'object', additionalProperties: true } } },
    },
  },
  routes(router, ctx) {
    // What the requesting user may view: their permissions apply, as on every list.
    router.get('/summary/', async (req, res) => {
      const rows = await ctx.as(req).list(Session, { ordering: ['id'] });
      const by_status: Record<string, number> = {};
      for (const row of rows) by_status[String(row.status)] = (by_status[String(row.status)] ?? 0) + 1;
      res.json({ local_as: ctx.config.local_as, sessions: rows.length, by_status });
    });
  },
});
