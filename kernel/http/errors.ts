import type { NextFunction, Request, Response } from 'express';
import { QueueUnavailable } from '@patchbay/queue';
import { isStalePlan } from '../db/prepared.js';
import { HttpError } from '../base/errors.js';
import type { Logger } from '../base/log.js';
import { ItemErrors, ValidationError } from '../base/types.js';
import { send } from './respond.js';
import { requestedPath } from './scope.js';

/** Network failures reaching PostgreSQL, and its own "going away" and "not accepting yet" codes. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03']);

/**
 * Whether `err` says the database cannot be reached (down, restarting, the network between): the client should try
 * again later (503), where a 500 would say the server is broken. The pool opens fresh connections once it is back.
 */
export function databaseUnavailable(err: unknown): boolean {
  const { code, name, message } = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE.has(code) || code.startsWith('08'))) return true;
  if (name === 'KnexTimeoutError') return true;
  return typeof message === 'string' && /Connection terminated|connection error and is not queryable|Connection ended unexpectedly/i.test(message);
}

/** Turns every error into a JSON response with the right status; unexpected ones are logged as 500s. */
export function errorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    void next;
    if (res.headersSent) return;
    // A body too large is not read to its end (a chunked one may never end): the connection closes after the answer.
    // Others refused before they were read whole (no login, a structure past the bounds) are read to their end
    // unparsed, as node does, so that the client sees the answer rather than a connection cut while it sends.
    if (!req.complete && err instanceof HttpError && err.status === 413) res.set('Connection', 'close');
    if (err instanceof HttpError) return send(req, res, err.status, err.body);
    if (err instanceof ValidationError) return send(req, res, 400, err.errors);
    // A bulk write's failures, aligned with its items: `[{}, {"name": [...]}]`.
    if (err instanceof ItemErrors) return send(req, res, 400, err.items);
    // What needs the queue while Redis is away answers at once, for the client to try again.
    if (err instanceof QueueUnavailable) return send(req, res, err.status, { detail: err.message });
    // Errors of express's own middleware (a missing static file, say) carry their status.
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return send(req, res, status, { detail: status === 404 ? 'Not found.' : (err as Error).message });
    }
    if (databaseUnavailable(err)) {
      log.warn(`${req.method} ${requestedPath(req)}: the database is unavailable (${(err as Error).message})`, { request_id: req.requestId });
      res.set('Retry-After', '5');
      return send(req, res, 503, { detail: 'The database is unavailable; try again in a few seconds.', request_id: req.requestId });
    }
    const pgCode = (err as { code?: string }).code;
    if (pgCode === '57014') {
      // STATEMENT_TIMEOUT cancelled a statement: nothing was written (its transaction rolled back).
      log.warn(`${req.method} ${requestedPath(req)}: a statement ran past STATEMENT_TIMEOUT and was cancelled`, { request_id: req.requestId });
      return send(req, res, 503, { detail: 'The database took too long to answer this request; it was cancelled and nothing was changed.', request_id: req.requestId });
    }
    if (pgCode === '40P01' || pgCode === '40001' || pgCode === '55P03') {
      // Still conflicting with concurrent writes after the writer's attempts: nothing was written.
      log.warn(`${req.method} ${requestedPath(req)}: conflicted with concurrent writes on every attempt (${pgCode})`, { request_id: req.requestId });
      res.set('Retry-After', '1');
      return send(req, res, 503, { detail: 'The change conflicted with concurrent changes and was not made; try again.', request_id: req.requestId });
    }
    if (isStalePlan(err)) {
      // A schema change by another process outdated this connection's prepared statements: it is being replaced.
      log.warn(`${req.method} ${requestedPath(req)}: a prepared statement outlived a change of the schema`, { request_id: req.requestId });
      res.set('Retry-After', '1');
      return send(req, res, 503, { detail: 'The database schema changed under this request; try again.', request_id: req.requestId });
    }
    if (pgCode === '23505') return send(req, res, 400, { __all__: ['An object with these values already exists.'] });
    if (pgCode === '23503') return send(req, res, 409, { detail: 'The change conflicts with objects that refer to this one.' });
    // The cause goes to the log, under the request id the client is given; never SQL or a stack in the answer.
    const error = err instanceof Error ? err : new Error(String(err));
    req.scope.error = error.constructor.name;
    log.error(`${req.method} ${req.originalUrl} failed: ${error.stack ?? error.message}`, { request_id: req.requestId });
    send(req, res, 500, { detail: 'Server error', request_id: req.requestId });
  };
}

export function notFoundHandler(req: Request, res: Response): void {
  send(req, res, 404, { detail: 'Not found.' });
}
