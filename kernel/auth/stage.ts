import type { NextFunction, Request, Response } from 'express';
import { ANONYMOUS } from './principal.js';

/**
 * The authentication stage of the request pipeline. It is open: every request proceeds as anonymous
 * until tokens and sessions plug in here.
 */
export function authenticate(req: Request, _res: Response, next: NextFunction): void {
  req.principal = ANONYMOUS;
  next();
}
