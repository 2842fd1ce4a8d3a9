import type { NextFunction, Request, Response } from 'express';
import type { Settings } from '../config/settings.js';
import type { Database } from '../db/database.js';
import type { Accounts } from './accounts.js';
import { HttpError } from '../base/errors.js';
import { wantsHtml } from '../http/respond.js';
import type { ModelRegistry } from '../model/registry.js';
import { Access, forbidden, notAuthenticated } from './access.js';
import { ANONYMOUS, type Principal } from './principal.js';
import { csrfFailure } from './csrf.js';
import { sessionPrincipal } from './sessions.js';
import type { TokenCache } from './token-cache.js';
import { tokenPrincipal } from './tokens.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own augmentation point
  namespace Express {
    interface Request {
      principal: Principal;
      access: Access;
    }
  }
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * API paths anyone may call even when LOGIN_REQUIRED: provisioning authenticates by password, and the root
 * (the app list and `API-Version`) is what pynetbox reads, without a token, for `nb.version`.
 */
export const PUBLIC_API_PATHS = new Set(['/api/', '/api/users/tokens/provision/']);

export interface AuthDeps {
  db: Database;
  settings: Settings;
  registry: ModelRegistry;
  tokens: TokenCache;
  accounts: Accounts;
}

/**
 * The authentication stage of the pipeline: a `Token` header, else a session cookie, else anonymous.
 * Then the rules that hold for every route: LOGIN_REQUIRED, read-only tokens, CSRF, maintenance mode.
 */
export function authenticate({ db, settings, registry, tokens, accounts }: AuthDeps, readsOnly: (path: string) => boolean = () => false) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const header = req.get('authorization');
    let principal = ANONYMOUS;
    if (header && /^token(\s|$)/i.test(header.trim())) principal = await tokenPrincipal(header, req, accounts, settings, tokens);
    else principal = (await sessionPrincipal(accounts, settings, req)) ?? ANONYMOUS;
    req.principal = principal;
    req.access = new Access(principal, settings, registry, db.knex, accounts);

    // A POST that only reads (a GraphQL query) is no write, whatever its method.
    const unsafe = !SAFE.has(req.method) && !readsOnly(req.path);
    const api = req.path.startsWith('/api/');
    if (api && !principal.user && settings.LOGIN_REQUIRED) {
      // A person in a browser is sent to log in; API clients reach only the public paths.
      if (wantsHtml(req)) return res.redirect(302, `/login/?next=${encodeURIComponent(req.originalUrl)}`);
      if (!PUBLIC_API_PATHS.has(req.path)) throw notAuthenticated();
    }
    if (unsafe && principal.via === 'token' && !principal.writeEnabled) throw forbidden();
    // As DRF's SessionAuthentication: cookie-authenticated writes are CSRF-checked (token ones are not).
    if (unsafe && principal.via === 'session' && api) {
      const reason = csrfFailure(req, settings.CSRF_TRUSTED_ORIGINS, req.get('x-csrftoken') ?? '', principal.csrfToken ?? '');
      if (reason) throw new HttpError(403, { detail: `CSRF Failed: ${reason}` });
    }
    if (unsafe && api && settings.MAINTENANCE_MODE) {
      throw new HttpError(503, {
        detail: 'Patchbay is currently operating in maintenance mode and is unable to perform write operations. Please try again later.',
      });
    }
    next();
  };
}

/**
 * Paths outside the API that only logged-in users may reach when LOGIN_REQUIRED (uploaded files, the GraphQL
 * page): a browser is sent to log in, other clients get the API's 403.
 */
export function requireLogin(settings: Settings) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!settings.LOGIN_REQUIRED || req.principal.user) return next();
    if (wantsHtml(req)) return res.redirect(302, `/login/?next=${encodeURIComponent(req.originalUrl)}`);
    throw notAuthenticated();
  };
}
