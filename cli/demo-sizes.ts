import type { Plugin } from '../kernel/plugin.js';

/** Every size the enabled plugins' demo data takes, with its default and limit (the first plugin naming it wins). */
export function sizesOf(plugins: Plugin[]): Map<string, { default: number; max: number; help: string }> {
  const sizes = new Map<string, { default: number; max: number; help: string }>();
  for (const plugin of plugins) for (const [name, spec] of Object.entries(plugin.demo?.sizes ?? {})) if (!sizes.has(name)) sizes.set(name, spec);
  return sizes;
}

/** The usage line of `generate-demo`, listing the sizes the built-in plugins take. */
export function demoUsage(builtins: Plugin[]): string {
  return `generate-demo ${[...sizesOf(builtins).entries()].map(([name, s]) => `[--${name} N=${s.default}]`).join(' ')}`;
}
