import { existsSync, readFileSync, statSync } from 'node:fs';
import { register } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import semver from 'semver';
import { StructError, create } from 'superstruct';
import { SettingsError } from '../config/load.js';
import type { Settings } from '../config/settings.js';
import { isPlugin, type Plugin } from '../plugin.js';
import { PATCHBAY_VERSION } from '../base/version.js';

/** A plugin together with its validated configuration. */
export interface EnabledPlugin {
  plugin: Plugin;
  config: Record<string, unknown>;
}

/** What a plugin's package exports as its entry (`exports` of ".", else `main`), or its `index.ts`/`index.js`. */
function packageEntry(dir: string): string {
  const manifest = join(dir, 'package.json');
  if (existsSync(manifest)) {
    const { exports, main } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: unknown; main?: string };
    const root = exports && typeof exports === 'object' && '.' in exports ? (exports as Record<string, unknown>)['.'] : exports;
    const conditions = root as { import?: string; default?: string } | undefined;
    const entry = typeof root === 'string' ? root : conditions?.import ?? conditions?.default ?? main;
    if (entry) return join(dir, entry);
  }
  return ['index.ts', 'index.js'].map((name) => join(dir, name)).find(existsSync) ?? join(dir, 'index.ts');
}

let hooked = false;

/** A plugin by path (a file, or a package's folder) or by package name, its `patchbay` imports resolved to this server. */
async function importPlugin(spec: string): Promise<Plugin> {
  if (!hooked) register(new URL('./resolve-hook.mjs', import.meta.url));
  hooked = true;
  const path = spec.startsWith('.') || isAbsolute(spec) ? resolve(spec) : undefined;
  const target = path ? pathToFileURL(existsSync(path) && statSync(path).isDirectory() ? packageEntry(path) : path).href : spec;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(target)) as Record<string, unknown>;
  } catch (err) {
    throw new SettingsError(`PLUGINS: cannot load "${spec}": ${(err as Error).message}`);
  }
  const plugin = [mod.default, mod.plugin].find(isPlugin);
  if (!plugin) throw new SettingsError(`PLUGINS: "${spec}" does not export a plugin made with definePlugin()`);
  return plugin;
}

function validateConfig(plugin: Plugin, given: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!plugin.config) {
    const key = Object.keys(given ?? {})[0];
    if (key) throw new SettingsError(`PLUGINS_CONFIG.${plugin.name}.${key}: plugin ${plugin.name} takes no settings`);
    return {};
  }
  try {
    return create({ ...(plugin.config.defaults ?? {}), ...(given ?? {}) }, plugin.config.schema) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof StructError)) throw err;
    const failure = err.failures()[0] ?? err;
    const path = [plugin.name, ...failure.path].join('.');
    if (failure.type === 'never') throw new SettingsError(`PLUGINS_CONFIG.${path}: unknown setting of plugin ${plugin.name}`);
    throw new SettingsError(`PLUGINS_CONFIG.${path}: ${failure.message}`);
  }
}

/**
 * Resolves the built-in apps and the PLUGINS setting into plugins, and checks every plugin's
 * kernel range, base path and config before any of them starts.
 */
export async function loadPlugins(builtins: Plugin[], settings: Settings): Promise<EnabledPlugin[]> {
  const plugins = [...builtins];
  for (const spec of settings.PLUGINS) plugins.push(await importPlugin(spec));

  const names = new Set<string>();
  const paths = new Set<string>();
  for (const plugin of plugins) {
    if (names.has(plugin.name)) throw new SettingsError(`plugin ${plugin.name}: enabled twice in PLUGINS`);
    names.add(plugin.name);
    if (paths.has(plugin.basePath)) throw new SettingsError(`plugin ${plugin.name}: base path ${plugin.basePath} is taken`);
    paths.add(plugin.basePath);
    if (!semver.validRange(plugin.kernel) || !semver.satisfies(PATCHBAY_VERSION, plugin.kernel, { includePrerelease: true })) {
      throw new SettingsError(
        `plugin ${plugin.name}: version ${plugin.version} requires Patchbay kernel ${plugin.kernel}, but this is ${PATCHBAY_VERSION}`,
      );
    }
  }
  for (const name of Object.keys(settings.PLUGINS_CONFIG)) {
    if (!names.has(name)) throw new SettingsError(`PLUGINS_CONFIG.${name}: no enabled plugin is called ${name}`);
  }
  checkActions(plugins);
  checkReferences(plugins);
  return inDependencyOrder(plugins).map((plugin) => ({ plugin, config: validateConfig(plugin, settings.PLUGINS_CONFIG[plugin.name]) }));
}

/** A plugin's actions are on its own models or those of a plugin it depends on: else start-up stops, naming both. */
function checkActions(plugins: Plugin[]): void {
  const owners = new Map(plugins.flatMap((plugin) => (plugin.models ?? []).map((model) => [model.key, plugin.name] as const)));
  for (const plugin of plugins) {
    for (const action of plugin.actions ?? []) {
      const owner = owners.get(action.model);
      const what = `plugin ${plugin.name}: the action ${action.name} on ${action.model}`;
      if (!owner) throw new SettingsError(`${what}: no enabled plugin declares ${action.model}`);
      if (owner !== plugin.name && !plugin.dependencies?.includes(owner)) {
        throw new SettingsError(`${what}: ${action.model} is a model of plugin ${owner}, which is not among its dependencies`);
      }
    }
  }
}

/** Whether `plugin` depends on plugin `other`, directly or through the plugins it depends on. */
export function dependsOn(plugin: Plugin, other: string, byName: ReadonlyMap<string, Plugin>, seen = new Set<string>()): boolean {
  const deps = plugin.dependencies ?? [];
  if (deps.includes(other)) return true;
  seen.add(plugin.name);
  return deps.some((name) => !seen.has(name) && byName.has(name) && dependsOn(byName.get(name)!, other, byName, seen));
}

/** A plugin's models refer only to its own models and its dependencies': else start-up stops, naming both. */
function checkReferences(plugins: Plugin[]): void {
  const byName = new Map(plugins.map((p) => [p.name, p]));
  for (const plugin of plugins) {
    for (const model of plugin.models ?? []) {
      for (const field of model.fields) {
        for (const key of field.refersTo()) {
          const app = key.split('.')[0];
          if (app === plugin.name || dependsOn(plugin, app, byName)) continue;
          const which = byName.has(app) ? `plugin ${app}, which is not among its dependencies` : `plugin ${app}, which is not enabled`;
          throw new SettingsError(`plugin ${plugin.name}: ${model.key}.${field.name} refers to ${key}, a model of ${which}`);
        }
      }
    }
  }
}

/**
 * The plugins with each one after those it depends on (otherwise in the order given): their models register and
 * their migrations run in this order. A missing dependency or a cycle stops start-up.
 */
function inDependencyOrder(plugins: Plugin[]): Plugin[] {
  const byName = new Map(plugins.map((p) => [p.name, p]));
  const ordered: Plugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: Plugin, path: string[]) => {
    if (state.get(plugin.name) === 'done') return;
    if (state.get(plugin.name) === 'visiting') throw new SettingsError(`PLUGINS: plugins depend on each other in a circle: ${[...path, plugin.name].join(' → ')}`);
    state.set(plugin.name, 'visiting');
    for (const name of plugin.dependencies ?? []) {
      const needed = byName.get(name);
      if (!needed) throw new SettingsError(`plugin ${plugin.name}: needs plugin ${name}, which is not enabled`);
      visit(needed, [...path, plugin.name]);
    }
    state.set(plugin.name, 'done');
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}
