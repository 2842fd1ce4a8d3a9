import type { Model } from './model.js';
import type { ModelRegistry } from './registry.js';
import type { Plugin } from '../plugin.js';

/** The model each REST list path serves (`/api/dcim/sites/`), aliases included (`/api/core/object-changes/`). */
export function modelsByPath(registry: ModelRegistry, plugins: readonly Plugin[]): Map<string, Model> {
  const paths = new Map<string, Model>();
  for (const model of registry.all()) if (model.served) paths.set(registry.apiPath(model), model);
  for (const alias of plugins.flatMap((p) => p.aliases ?? [])) paths.set(alias.path, alias.model);
  return paths;
}
