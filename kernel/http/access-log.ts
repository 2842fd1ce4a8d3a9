import type { Request, Response } from 'express';
import type { RequestHook } from '../app/surface.js';
import type { Logger } from '../base/log.js';
import { requestedPath } from './scope.js';

/**
 * One line per request, once its response is sent (or its client went away): what it was, who sent it, how it
 * ended and what it cost. The route is the template that answered (`/api/dcim/sites/:id/`), for grouping; the
 * path is the one requested, without its query (which may carry secrets).
 */
export function accessLog(log: Logger): RequestHook {
  return {
    response(req: Request, res: Response, ms: number) {
      // logfmt in text (`request method=GET path=/api/dcim/sites/ status=200 …`), fields in JSON.
      log.info('request', {
        method: req.method,
        path: requestedPath(req),
        status: res.statusCode,
        duration_ms: Math.round(ms * 10) / 10,
        sql: req.scope?.statements ?? 0,
        user: req.principal?.user?.username ?? null,
        route: req.scope?.route ?? null,
        request_id: req.requestId,
        // The client went away before the response was complete.
        ...(res.writableFinished ? {} : { aborted: true }),
      });
    },
  };
}
