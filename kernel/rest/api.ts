import express, { type RequestHandler } from 'express';
import { appendTo } from '../base/collections.js';
import type { HttpSurface } from '../app/surface.js';
import type { Plugin, PluginContext } from '../plugin.js';
import type { QueuePort } from '@patchbay/queue';
import { recordingRouter, type RecordedRoute } from '../openapi/routes.js';
import { rootRouter } from './roots.js';
import type { RestServices } from './services.js';
import { modelRouter, type ListOutputs } from './viewset.js';

export interface RestApiDeps extends RestServices {
  plugins: { plugin: Plugin; ctx: PluginContext }[];
  queue: QueuePort;
}

/**
 * The REST API on the surface: the API roots, then each plugin's extra routes and model endpoints under its base
 * path. Returns the extra routes each plugin registered, by plugin name, for the OpenAPI document.
 */
export function mountRestApi(surface: HttpSurface, deps: RestApiDeps): Map<string, RecordedRoute[]> {
  const { registry } = deps;
  const routes = new Map<string, RecordedRoute[]>();
  surface.mount('/', rootRouter({ plugins: deps.plugins.map((p) => p.plugin), registry, db: deps.db, queue: deps.queue, routes }));
  const outputs: ListOutputs = new Map(
    deps.plugins.flatMap(({ plugin, ctx }) => Object.entries(plugin.listOutputs ?? {}).map(([param, handler]) => [param, (req, res, model) => handler(req, res, model, ctx)])),
  );
  // Each model's actions, whichever plugin adds them, mounted before its detail route.
  const actions = new Map<string, RequestHandler[]>();
  for (const { plugin, ctx } of deps.plugins) {
    for (const action of plugin.actions ?? []) {
      const model = registry.get(action.model);
      const router = express.Router({ strict: true, caseSensitive: true });
      router[action.method](`/:id/${action.name}/`, action.handler(ctx, model));
      appendTo(actions, model.key, router);
    }
  }
  for (const { plugin, ctx } of deps.plugins) {
    // Extra routes first, so that e.g. `tokens/provision/` is not taken for a detail URL.
    if (plugin.routes) {
      const router = express.Router({ strict: true, caseSensitive: true, mergeParams: true });
      const recorded: RecordedRoute[] = [];
      plugin.routes(recordingRouter(router, recorded), ctx);
      routes.set(plugin.name, recorded);
      surface.mount(plugin.basePath, router);
    }
    const served = (plugin.models ?? []).filter((m) => m.served);
    for (const model of served) {
      for (const action of actions.get(model.key) ?? []) surface.mount(registry.apiPath(model), action);
      surface.mount(registry.apiPath(model), modelRouter(model, deps, outputs));
    }
    for (const alias of plugin.aliases ?? []) surface.mount(alias.path, modelRouter(alias.model, deps, outputs));
    // display_url points at the object's page; until there is a UI it is the browsable API.
    for (const model of served) {
      const ui = registry.uiPath(model);
      surface.mount(ui, (req, res, next) => (req.method === 'GET' ? res.redirect(302, registry.apiPath(model) + req.path.slice(1)) : next()));
    }
  }
  return routes;
}
