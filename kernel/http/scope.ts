import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

/** What one request accumulates as it is served, wherever its work runs (SQL statements, in every async step). */
export interface RequestScope {
  statements: number;
  /**
   * The route that answers, as its template (`/api/dcim/sites/:id/`), or the mount path of a handler without
   * routes (`/media/`); undefined when nothing did (a 404, a request refused before routing).
   */
  route?: string;
  /** The class of an unexpected error the request ended with (`TypeError`): a 500, logged once with its stack. */
  error?: string;
  /** Whether it came over TLS (or through a trusted proxy that says so), read while its socket is there. */
  secure: boolean;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own augmentation point
  namespace Express {
    interface Request {
      scope: RequestScope;
    }
  }
}

const storage = new AsyncLocalStorage<RequestScope>();

/** The path the client asked for, without its query: `req.path` is relative to the router a response ends in. */
export function requestedPath(req: Request): string {
  const url = req.originalUrl;
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** The scope of the request whose work is running, if any (a statement the outbox sweep runs has none). */
export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

/**
 * Opens each request's scope and records the template of each route express dispatches it to: express sets
 * `req.route` as it enters a route, when `req.baseUrl` is the path its router is mounted at. `accounting` makes the
 * scope follow the request's asynchronous work (`currentScope()`), for its SQL statements: Node 20's async
 * context tracking costs every promise a little (5–8% of a small request's throughput), so only when something
 * reads the count (the access log, the metrics).
 */
export const requestScope = (accounting: boolean) => (req: Request, _res: Response, next: NextFunction): void => {
  const scope: RequestScope = { statements: 0, secure: req.secure };
  req.scope = scope;
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: { path?: unknown } | undefined) {
      route = value;
      if (typeof value?.path === 'string') scope.route = req.baseUrl + value.path;
    },
  });
  if (accounting) storage.run(scope, next);
  else next();
};

/**
 * Wraps what is mounted at `path`: a handler that answers without routes of its own (static files, GraphQL) is
 * named by its path; one that passes the request on did not answer it, and forgets the route it tried.
 */
export function mountScope(path: string) {
  return {
    enter: (req: Request, _res: Response, next: NextFunction) => {
      req.scope.route = path;
      next();
    },
    leave: (req: Request, _res: Response, next: NextFunction) => {
      req.scope.route = undefined;
      next();
    },
  };
}
