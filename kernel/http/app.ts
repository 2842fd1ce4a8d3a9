import { parse } from 'node:querystring';
import express, { type Express } from 'express';
import { notAuthenticated } from '../auth/access.js';
import { authenticate } from '../auth/authenticate.js';
import { loginRouter } from '../auth/login.js';
import type { Logger } from '../log.js';
import type { Plugin, PluginContext } from '../plugin.js';
import { modelRouter } from '../rest/viewset.js';
import type { RestServices } from '../rest/services.js';
import type { QueuePort } from '../queue/port.js';
import { errorHandler, notFoundHandler } from './errors.js';
import { allowedHost, bodyParser, queryTexts, requestHeaders, trailingSlash } from './pipeline.js';
import { rootRouter } from './root.js';
import { buildOpenApi } from '../openapi/document.js';
import { schemaRouter } from '../openapi/route.js';
import { recordingRouter, type RecordedRoute } from '../openapi/routes.js';

export interface AppDeps extends RestServices {
  plugins: { plugin: Plugin; ctx: PluginContext }[];
  queue: QueuePort;
  log: Logger;
}

/**
 * The request pipeline: ids and version headers → trailing-slash redirect → body → authentication →
 * login pages → API roots → each plugin's extra routes and model endpoints → JSON errors.
 */
export function buildApp(deps: AppDeps): Express {
  const app = express();
  app.set('strict routing', true);
  // NetBox's URLs are case-sensitive; so are the checks that compare paths (CSRF, login, maintenance).
  app.set('case sensitive routing', true);
  app.set('x-powered-by', false);
  // NetBox sends no ETags; hashing every response body would cost a large list a few milliseconds.
  app.set('etag', false);
  // Repeated parameters become arrays; no cap on their number (the filter DSL refuses too many with a 400).
  app.set('query parser', (text: string) => parse(text, '&', '=', { maxKeys: 0 }));
  app.use(requestHeaders, allowedHost(deps.settings), queryTexts, trailingSlash, bodyParser(deps.settings.MAX_BODY_SIZE), authenticate(deps));
  app.use(loginRouter(deps.db, deps.settings));
  // There is no UI yet: the site's root is the browsable API.
  app.get('/', (_req, res) => res.redirect(302, '/api/'));
  // Uploaded files (MEDIA_ROOT): for logged-in users, or anyone when LOGIN_REQUIRED is false.
  app.use(
    '/media/',
    (req, _res, next) => next(deps.settings.LOGIN_REQUIRED && !req.principal.user ? notAuthenticated() : undefined),
    express.static(deps.settings.MEDIA_ROOT, { index: false, dotfiles: 'deny', fallthrough: false }),
  );
  app.use(rootRouter({ plugins: deps.plugins.map((p) => p.plugin), registry: deps.registry, db: deps.db, queue: deps.queue }));
  const routes = new Map<string, RecordedRoute[]>();

  for (const { plugin, ctx } of deps.plugins) {
    // Extra routes first, so that e.g. `tokens/provision/` is not taken for a detail URL.
    if (plugin.routes) {
      const router = express.Router({ strict: true, caseSensitive: true, mergeParams: true });
      const recorded: RecordedRoute[] = [];
      plugin.routes(recordingRouter(router, recorded), ctx);
      routes.set(plugin.name, recorded);
      app.use(plugin.basePath, router);
    }
    const served = (plugin.models ?? []).filter((m) => m.served);
    for (const model of served) app.use(deps.registry.apiPath(model), modelRouter(model, deps));
    for (const alias of plugin.aliases ?? []) app.use(alias.path, modelRouter(alias.model, deps));
    // display_url points at the object's page; until there is a UI it is the browsable API.
    for (const model of served) {
      app.get(`${deps.registry.uiPath(model)}{*rest}`, (req, res) => {
        res.redirect(302, deps.registry.apiPath(model) + req.path.slice(deps.registry.uiPath(model).length));
      });
    }
  }

  // Built once every route is known, from the same declarations that serve them.
  const started = performance.now();
  const document = buildOpenApi({ registry: deps.registry, filters: deps.filters, plugins: deps.plugins.map((p) => p.plugin), routes });
  const built = performance.now();
  app.use(schemaRouter(document));
  const ms = (from: number, to: number) => Math.round(to - from);
  deps.log.info(`OpenAPI document: ${Object.keys(document.paths).length} paths built in ${ms(started, built)} ms, rendered as JSON and YAML in ${ms(built, performance.now())} ms`);
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return app;
}
