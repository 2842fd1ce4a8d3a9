import express, { type Router } from 'express';
import { withinWait } from '@patchbay/guards';
import type { Database } from '../db/database.js';

/** Where the server is in its life: `draining` from the moment it begins to shut down. */
export interface Lifecycle {
  draining: boolean;
}

/**
 * `/healthz` (the process answers) and `/readyz` (it can serve: not shutting down, PostgreSQL answering), for load
 * balancers and orchestrators. Before the host check and the login, as they probe by address and without a token;
 * neither says more than its status. While shutting down, every response asks the client to close its connection,
 * so that keep-alive clients move to another process.
 */
export function healthRouter(db: Database, lifecycle: Lifecycle): Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  router.use((_req, res, next) => {
    if (lifecycle.draining) res.set('Connection', 'close');
    next();
  });
  router.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  router.get('/readyz', async (_req, res) => {
    if (lifecycle.draining) return void res.status(503).json({ status: 'shutting down' });
    const up = await withinWait(db.ping()).catch(() => false);
    res.status(up ? 200 : 503).json({ status: up ? 'ready' : 'database unavailable' });
  });
  return router;
}
