import type { DemoSize, Plugin } from '../kernel/plugin.js';

/** Every size the enabled plugins' demo data takes, with its default and limit (the first plugin naming it wins). */
export function sizesOf(plugins: Plugin[]): Map<string, DemoSize> {
  const sizes = new Map<string, DemoSize>();
  for (const plugin of plugins) for (const [name, spec] of Object.entries(plugin.demo?.sizes ?? {})) if (!sizes.has(name)) sizes.set(name, spec);
  return sizes;
}

/** The usage line of `generate-demo`, listing the sizes the built-in plugins take. */
export function demoUsage(builtins: Plugin[]): string {
  const sizes = [...sizesOf(builtins).entries()];
  const part = sizes.find(([, s]) => s.part)?.[1].part;
  return `generate-demo ${[...sizes.map(([name, s]) => `[--${name} N=${s.default}]`), ...(part ? [`[--part N=${part}]`] : [])].join(' ')}`;
}

/** The options of `generate-demo`: each size with its meaning, default and limit, and the part. */
export function demoOptions(builtins: Plugin[]): Record<string, string> {
  const sizes = [...sizesOf(builtins).entries()];
  const part = sizes.find(([, s]) => s.part);
  return Object.fromEntries([
    ...sizes.map(([name, s]) => [`--${name} N`, `How many ${s.help} (default ${s.default}, at most ${s.max}).`]),
    ...(part ? [['--part N', `How many ${part[0]} each transaction builds (default ${part[1].part}); two parts are built at once after the first.`]] : []),
  ]);
}
