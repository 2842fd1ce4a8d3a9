import { parse } from 'node:querystring';
import express, { type Express, type Request, type Response, type NextFunction } from 'express';
import { guarded } from '@patchbay/guards';
import type { ProcessesMetrics } from '@patchbay/cluster-metrics';
import { authenticate, requireLogin } from '../auth/authenticate.js';
import { contains, prefixSet } from '../auth/client-ip.js';
import { loginRouter } from '../auth/login.js';
import { mountGraphql } from '../graphql/endpoint.js';
import { errorHandler, notFoundHandler } from '../http/errors.js';
import { healthRouter, type Lifecycle } from '../http/health.js';
import { allowedHost, bodyParser, jsonLimits, queryTexts, requestHeaders, trailingSlash } from '../http/pipeline.js';
import type { Logger } from '../base/log.js';
import type { DataAccess } from '../plugins/data.js';
import { mountOpenApi } from '../openapi/route.js';
import { mountRestApi, type RestApiDeps } from '../rest/api.js';
import { accessLog } from '../http/access-log.js';
import { BROWSABLE_FILES, pageStyle } from '../http/pages.js';
import { currentScope, mountScope, requestScope } from '../http/scope.js';
import { metricsRouter } from '../metrics/endpoint.js';
import { requestMetrics } from '../metrics/http.js';
import type { Metrics } from '../metrics/registry.js';
import { ViewNames } from '../metrics/views.js';
import { mountIndex } from './mounts.js';
import { MountList, type RequestHook } from './surface.js';
import type { TokenCache } from '../auth/token-cache.js';
import type { Accounts } from '../auth/accounts.js';

export interface AppDeps extends RestApiDeps {
  log: Logger;
  metrics: Metrics;
  /** Every process's metrics: through Redis when the queue is on Redis, else from the supervisor of `runserver`'s workers. */
  processesMetrics?: ProcessesMetrics;
  /** Reads as the user of a request, as plugins' routes do. */
  as(req: Request): DataAccess;
  lifecycle: Lifecycle;
  /** The tokens this process authenticated a moment ago. */
  tokens: TokenCache;
  /** What authentication reads of users, tokens, sessions and permissions (the users app's service). */
  accounts: Accounts;
}

/**
 * The response side of the hooks, for every request (those the pipeline refuses too), once it is answered or its
 * client went away (its socket may be gone by then). Each hook is guarded: a hook that throws is logged.
 */
function afterHooks(hooks: RequestHook[], log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const failed = (err: unknown) => log.error(`A response hook failed: ${err instanceof Error ? err.stack : String(err)}`, { request_id: req.requestId });
    res.once('close', guarded(() => {
      const ms = performance.now() - started;
      // One by one: a hook that throws does not keep the others from their turn.
      for (const hook of hooks) if (hook.response) guarded(() => hook.response!(req, res, ms), failed)();
    }, failed));
    next();
  };
}

/** The request side of the hooks, once the request is authenticated. */
function beforeHooks(hooks: RequestHook[]) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    for (const hook of hooks) await hook.request?.(req);
    next();
  };
}

/** The HTTP app, and what builds now the parts it otherwise builds on first use (the OpenAPI document, the GraphQL schema). */
export interface BuiltApp {
  app: Express;
  prepare(): void;
}

/**
 * The HTTP server: the common pipeline (ids and version headers, host check, trailing-slash redirect, body,
 * authentication), the request hooks, then what the kernel's mechanisms and the plugins mounted, in order (login
 * pages, uploaded files, the REST API, OpenAPI, GraphQL, each plugin's own paths), then JSON errors.
 */
export function buildApp(deps: AppDeps): BuiltApp {
  const { settings } = deps;
  const surface = new MountList();
  surface.mount('/', loginRouter(deps.accounts, settings));
  // The style of the server's pages, public as every `/static/` file.
  surface.mount(BROWSABLE_FILES, pageStyle());
  // There is no UI yet: the site's root is the browsable API.
  surface.mount('/', express.Router({ strict: true }).get('/', (_req, res) => res.redirect(302, '/api/')));
  // Uploaded files (MEDIA_ROOT): for logged-in users, or anyone when LOGIN_REQUIRED is false.
  surface.mount('/media/', express.static(settings.MEDIA_ROOT, { index: false, dotfiles: 'deny', fallthrough: false }), { login: true });
  const routes = mountRestApi(surface, deps);
  // Built once every route is known, from the same declarations that serve them.
  const prepareOpenApi = mountOpenApi(surface, { registry: deps.registry, filters: deps.filters, plugins: deps.plugins.map((p) => p.plugin), routes, log: deps.log });
  const prepareGraphql = mountGraphql(surface, { ...deps, db: deps.db.knex });
  if (settings.METRICS_ENABLED) {
    surface.mount('/', metricsRouter(settings, deps.metrics, deps.processesMetrics));
    surface.hook(requestMetrics(deps.metrics, new ViewNames(deps.registry, deps.plugins.map((p) => p.plugin))));
  }
  const logsRequests = settings.ACCESS_LOG && ['info', 'debug'].includes(settings.LOG_LEVEL);
  if (logsRequests) surface.hook(accessLog(deps.log));
  for (const { plugin, ctx } of deps.plugins) plugin.http?.(surface, ctx);

  // Statements count toward the request whose work runs them, when the access log or the metrics read the count.
  const accounting = logsRequests || settings.METRICS_ENABLED;
  if (accounting) {
    deps.db.knex.on('query', () => {
      const scope = currentScope();
      if (scope) scope.statements += 1;
    });
  }
  const app = express();
  // What `send` renders a browser's page with, if a plugin renders them.
  app.locals.pages = surface.renderer;
  app.set('strict routing', true);
  // NetBox's URLs are case-sensitive; so are the checks that compare paths (CSRF, login, maintenance).
  app.set('case sensitive routing', true);
  app.set('x-powered-by', false);
  // Behind a TLS proxy named in TRUSTED_PROXIES, X-Forwarded-Proto says the scheme: absolute URLs and the session
  // cookie's Secure flag follow it. Other peers' forwarded headers are ignored.
  const proxies = prefixSet(settings.TRUSTED_PROXIES);
  app.set('trust proxy', (address: string) => contains(proxies, address.replace(/^::ffff:/, '')));
  // NetBox sends no ETags; hashing every response body would cost a large list a few milliseconds.
  app.set('etag', false);
  // Repeated parameters become arrays; no cap on their number (the filter DSL refuses too many with a 400).
  app.set('query parser', (text: string) => parse(text, '&', '=', { maxKeys: 0 }));
  app.use(requestHeaders, requestScope(accounting));
  if (surface.hooks.some((h) => h.response)) app.use(afterHooks(surface.hooks, deps.log));
  app.use(healthRouter(deps.db, deps.lifecycle));
  const reading = surface.mounts.filter((m) => m.options.readOnly).map((m) => m.path);
  const readsOnly = (path: string) => reading.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
  // Authenticated before the body is read: a request refused for want of a login costs no parsing.
  app.use(allowedHost(settings), queryTexts, trailingSlash, authenticate(deps, readsOnly), bodyParser(settings.MAX_BODY_SIZE, jsonLimits(settings)));
  if (surface.hooks.some((h) => h.request)) app.use(beforeHooks(surface.hooks));
  const login = requireLogin(settings);
  app.use(mountIndex(surface.mounts.map(({ path, handler, options }) => {
    const scope = mountScope(path);
    return { path, chain: options.login ? [scope.enter, login, handler, scope.leave] : [scope.enter, handler, scope.leave] };
  })));
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return {
    app,
    prepare: () => {
      prepareOpenApi();
      prepareGraphql();
    },
  };
}
