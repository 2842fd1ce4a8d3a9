import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { appendTo } from '../base/collections.js';

/**
 * The mounts as one middleware that goes straight to those whose path prefixes the request's, in mount order, each
 * with express's own mount semantics (`req.baseUrl`, `req.url` relative to it, falling through with `next()`).
 * Express alone tests every mount's path in turn: with a mount per model that is some 700 matches per request.
 */
export function mountIndex(mounts: { path: string; chain: RequestHandler[] }[]): RequestHandler {
  /** Literal mount paths without their trailing slash (as express matches them), to the positions mounted there. */
  const byPath = new Map<string, number[]>();
  /** Paths with parameters or patterns: tried for every request. */
  const patterned: number[] = [];
  const routers = mounts.map(({ path, chain }, n) => {
    const key = path.replace(/\/+$/, '') || '/';
    if (/[:*?()[\]+]/.test(key)) patterned.push(n);
    else appendTo(byPath, key, n);
    return express.Router({ strict: true, caseSensitive: true }).use(path, ...chain);
  });
  const dispatch = (req: Request, res: Response, next: NextFunction) => {
    const found = [...patterned, ...(byPath.get('/') ?? [])];
    const { path } = req;
    // Each prefix ending before a slash, then the whole path.
    for (let end = path.indexOf('/', 1); path !== '/'; end = path.indexOf('/', end + 1)) {
      const at = byPath.get(end === -1 ? path : path.slice(0, end));
      if (at) found.push(...at);
      if (end === -1) break;
    }
    found.sort((a, b) => a - b);
    let n = 0;
    const proceed = (err?: unknown): void => {
      if (err) return next(err);
      if (n === found.length) return next();
      routers[found[n++]](req, res, proceed);
    };
    proceed();
  };
  // The mounts' layers where express keeps a router's, for what lists the routes served (the OpenAPI test).
  return Object.assign(dispatch, { stack: routers.flatMap((router) => router.stack) });
}
