/**
 * Objects a template may reach into beyond plain JSON data: the rendered device, its related objects, model managers.
 * The sandbox exposes only what `[HOST](key)` answers; everything else about a host (its prototype, its methods) is out
 * of reach, as for any other value. It never asks for a key starting with `_` or named like a member of
 * Object.prototype (`constructor`, `toString`, ...).
 *
 * A function a host answers is callable from the template. It is called without `this`, with the template's
 * positional arguments followed, when the template passed keyword arguments (`filter(site='a')`), by one object
 * holding them, marked with a non-enumerable `__keywords: true` (nunjucks' convention): use `splitArguments`.
 * Arguments arrive as JSON-like values (null, booleans, numbers, strings, arrays, plain objects), `undefined` for
 * Jinja's Undefined, or hosts. A function returning `undefined` returns Python's None. Answer JSON-like values, hosts
 * or functions: other objects (a Date) are opaque to templates.
 *
 * Values two lookups answer are compared by identity (`{% if a.site == b.site %}`): answer the same host object for
 * the same row within a render.
 */
export const HOST = Symbol('patchbay.templateHost');

export interface TemplateHost {
  /** The attribute `key` (`undefined` when there is none); functions returned are callable from the template. */
  [HOST](key: string): unknown;
  /** What `{{ host }}` prints (Python's `str()`). */
  toString(): string;
  /** Python's class name (`Device`), for error messages; `object` when absent. */
  readonly typeName?: string;
  /** Python's `repr()`: how the host prints inside a list or dict; `toString()` when absent. */
  repr?(): string;
  /** Python's `len()`, for `|length`, `|count` and `{% if host %}`; without it a host is true and has no length. */
  length?(): number;
  /** A host with `[Symbol.iterator]` can be looped over, indexed and sliced (a queryset). */
  [Symbol.iterator]?(): Iterator<unknown>;
}

export function isTemplateHost(value: unknown): value is TemplateHost {
  return typeof value === 'object' && value !== null && HOST in value;
}

export interface HostArguments {
  positional: unknown[];
  keywords: Record<string, unknown>;
}

/** Separates the keyword arguments object (if any) from the positional arguments a host function received. */
export function splitArguments(args: readonly unknown[]): HostArguments {
  const last = args.at(-1);
  if (typeof last === 'object' && last !== null && Object.prototype.hasOwnProperty.call(last, '__keywords')) {
    const keywords: Record<string, unknown> = { ...(last as Record<string, unknown>) };
    delete keywords.__keywords;
    return { positional: args.slice(0, -1), keywords };
  }
  return { positional: [...args], keywords: {} };
}

/** Builds the keyword arguments object `splitArguments` recognises. */
export function keywordArguments(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const kwargs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of entries) Object.defineProperty(kwargs, k, { value: v, enumerable: true, writable: true });
  Object.defineProperty(kwargs, '__keywords', { value: true });
  return kwargs;
}
