import { timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { Registry } from 'prom-client';
import type { Settings } from '../config/settings.js';
import { HttpError } from '../base/errors.js';
import type { Metrics } from './registry.js';
import type { ProcessesMetrics } from '@patchbay/cluster-metrics';

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
function bearer(req: Request, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? '';
  return given.length === token.length && timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

/**
 * `GET /metrics`: Prometheus's text format, without a login as in NetBox (or with METRICS_TOKEN as a bearer
 * token). The process's families summed with every other process's (`processes`), then the deployment's gauges.
 */
export function metricsRouter(settings: Settings, metrics: Metrics, processes: ProcessesMetrics | undefined): express.Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  router.get('/metrics', async (req: Request, res: Response) => {
    if (settings.METRICS_TOKEN && !bearer(req, settings.METRICS_TOKEN)) {
      res.set('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new HttpError(401, { detail: 'A valid bearer token is required to read the metrics.' });
    }
    const summed = processes ? await processes.aggregate() : metrics.registry;
    const all = Registry.merge([summed, metrics.deployment]);
    res.type(all.contentType).send(await all.metrics());
  });
  return router;
}
