// @ts-check
// JavaScript, not TypeScript: Node loads a hook module in its loader thread, where no TypeScript loader may be.

/** Patchbay's own manifest: `patchbay` resolved from there is this server's public API (a package's self-reference). */
const HOME = new URL('../../package.json', import.meta.url).href;

/**
 * Node's module resolution hook, registered before a third-party plugin loads: `patchbay` and `patchbay/…`, imported
 * from wherever the plugin is (a path, a package in node_modules, a link), are the running server's, never a second
 * copy nor a missing package.
 * @type {import('node:module').ResolveHook}
 */
export const resolve = (specifier, context, next) =>
  specifier === 'patchbay' || specifier.startsWith('patchbay/') ? next(specifier, { ...context, parentURL: HOME }) : next(specifier, context);
