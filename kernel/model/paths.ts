import type { Model } from './model.js';
import type { ModelRegistry } from './registry.js';
import type { Plugin } from '../plugin.js';

/** A built-in app's base path (`/api/dcim/`), not a third-party plugin's (`/api/plugins/<name>/`). */
export const BUILTIN_PATH = /^\/api\/([a-z0-9_-]+)\/$/;

/**
 * Whether a plugin's base path is an API root: every third-party plugin's, and a built-in app's that serves something
 * below it (the browsable API's pages serve nothing there).
 */
export function hasApiRoot(plugin: Plugin): boolean {
  return !BUILTIN_PATH.test(plugin.basePath) || !!(plugin.models?.length || plugin.routes || plugin.aliases?.length);
}

/** The model each REST list path serves (`/api/dcim/sites/`), aliases included (`/api/core/object-changes/`). */
export function modelsByPath(registry: ModelRegistry, plugins: readonly Plugin[]): Map<string, Model> {
  const paths = new Map<string, Model>();
  for (const model of registry.all()) if (model.served) paths.set(registry.apiPath(model), model);
  for (const alias of plugins.flatMap((p) => p.aliases ?? [])) paths.set(alias.path, alias.model);
  return paths;
}
