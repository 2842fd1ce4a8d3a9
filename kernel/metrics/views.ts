import type { ModelRegistry } from '../model/registry.js';
import type { Plugin } from '../plugin.js';
import { modelsByPath } from '../model/paths.js';

/** django-prometheus's label for a request no URL pattern matched. */
export const UNNAMED_VIEW = '<unnamed view>';

/** NetBox's URL names of the pages and endpoints outside the apps. */
const NAMED: Record<string, string> = {
  '/api/': 'api-root',
  '/api/status/': 'api-status',
  '/api/schema/': 'schema',
  '/api/schema/swagger-ui/': 'api_docs',
  '/api/schema/redoc/': 'api_redocs',
  '/api/plugins/': 'plugins-api:api-root',
  '/api/plugins/installed-plugins/': 'plugins-api:plugins-list',
  '/graphql': 'graphql',
  '/metrics': 'prometheus-django-metrics',
  '/login/': 'login',
  '/logout/': 'logout',
};

/**
 * The `view` label NetBox's dashboards read (`dcim-api:site-list`, `dcim-api:device-render-config`), from the
 * template of the route that answered: `<app>-api:<model>-list|detail` for a model's endpoints (a plugin's
 * under `plugins-api:`), `<app>-api:<model>-<action>` for a route below them, `<app>-api:<route>` for an app's
 * other routes and `<app>-api:api-root` for its root. Names are computed once per template: their number is that
 * of the routes, whatever the requests.
 */
export class ViewNames {
  private readonly names = new Map<string, string>();
  /** Model name by API path (`/api/dcim/sites/` → `site`), aliases included. */
  private readonly models: Map<string, string>;
  /** URL namespace by plugin base path (`/api/dcim/` → `dcim-api`). */
  private readonly namespaces = new Map<string, string>();

  constructor(registry: ModelRegistry, plugins: Plugin[]) {
    this.models = new Map([...modelsByPath(registry, plugins)].map(([path, model]) => [path, model.key.split('.')[1]]));
    for (const plugin of plugins) {
      const builtin = /^\/api\/([a-z0-9_-]+)\/$/.exec(plugin.basePath);
      this.namespaces.set(plugin.basePath, builtin ? `${builtin[1]}-api` : `plugins-api:${plugin.name}-api`);
      // An app with aliases only (`/api/core/` before the core app had models) has a namespace too.
      for (const alias of plugin.aliases ?? []) {
        const app = /^(\/api\/([a-z0-9_-]+)\/)/.exec(alias.path);
        if (app && !this.namespaces.has(app[1])) this.namespaces.set(app[1], `${app[2]}-api`);
      }
    }
  }

  /** The view of a route template (`/api/dcim/sites/:id/`), or of nothing matched (undefined). */
  of(template: string | undefined): string {
    if (template === undefined) return UNNAMED_VIEW;
    let name = this.names.get(template);
    if (name === undefined) {
      name = this.name(template);
      this.names.set(template, name);
    }
    return name;
  }

  private name(template: string): string {
    if (NAMED[template]) return NAMED[template];
    for (const [path, model] of this.models) {
      if (!template.startsWith(path)) continue;
      const namespace = this.namespaceOf(path);
      const rest = template.slice(path.length);
      if (rest === '') return `${namespace}:${model}-list`;
      if (/^:[a-z_]+\/$/.test(rest)) return `${namespace}:${model}-detail`;
      const action = /^(?::[a-z_]+\/)?([a-z0-9_-]+)\/$/.exec(rest);
      if (action) return `${namespace}:${model}-${action[1]}`;
    }
    for (const [base, namespace] of this.namespaces) {
      if (template === base) return `${namespace}:api-root`;
      if (template.startsWith(base)) return `${namespace}:${template.slice(base.length).replace(/\/$/, '').replace(/\/:[a-z_]+/g, '').replaceAll('/', '-')}`;
    }
    // Pages outside the API (the background tasks page): their path names them.
    return template;
  }

  private namespaceOf(path: string): string {
    for (const [base, namespace] of this.namespaces) if (path.startsWith(base)) return namespace;
    return 'api';
  }
}
