import type { OpenApiDocument } from './document.js';

/**
 * Operations one part shows at most. ReDoc lays out every operation of its document at once: all of Patchbay's
 * took about 40 s on these machines; the slowest of the 31 parts of this size 3.2–4.0 s in two runs (median 2.4–2.6 s).
 */
const PART_OPERATIONS = 50;

/** One part of the document: an app's resources (all of a small app's), by their paths. */
export interface DocumentPart {
  app: string;
  /** 1, 2, … within the app. */
  part: number;
  /** How many parts the app has. */
  of: number;
  /** The resources it documents (`cables`, `devices`), in path order. */
  resources: string[];
}

/** The app and the resource of a path: `/api/dcim/devices/{id}/` → dcim, devices (`plugins/<name>` for a plugin's; the root's app is `api`). */
function placeOf(path: string): { app: string; resource: string } | undefined {
  if (path === '/api/') return { app: 'api', resource: '' };
  const [, first, second, third] = /^\/api\/([^/]+)\/(?:([^/]+)\/)?(?:([^/]+)\/)?/.exec(path) ?? [];
  if (!first || first === 'schema') return undefined;
  if (first === 'plugins' && second) return { app: `plugins/${second}`, resource: third ?? '' };
  return { app: first, resource: second ?? '' };
}

/** The document's parts: each app's resources, in path order, cut into parts of at most PART_OPERATIONS operations. */
export function documentParts(document: OpenApiDocument): DocumentPart[] {
  const operations = new Map<string, Map<string, number>>();
  for (const [path, item] of Object.entries(document.paths)) {
    const place = placeOf(path);
    if (!place) continue;
    const resources = operations.get(place.app) ?? new Map<string, number>();
    resources.set(place.resource, (resources.get(place.resource) ?? 0) + Object.keys(item).length);
    operations.set(place.app, resources);
  }
  return [...operations].flatMap(([app, resources]) => {
    const parts: string[][] = [[]];
    let count = 0;
    for (const [resource, ops] of resources) {
      if (count + ops > PART_OPERATIONS && parts.at(-1)!.length) parts.push([]), (count = 0);
      parts.at(-1)!.push(resource);
      count += ops;
    }
    return parts.map((list, i) => ({ app, part: i + 1, of: parts.length, resources: list }));
  });
}

/** How a part is named: its app, and which part when the app has several (`dcim (3 of 11)`). */
export function partLabel(part: DocumentPart): string {
  return `${part.app}${part.of > 1 ? ` (${part.part} of ${part.of})` : ''}`;
}

/** The part a request's `app` and `part` (default 1) name, if they name one. */
export function findPart(parts: DocumentPart[], app: unknown, part: unknown = '1'): DocumentPart | undefined {
  return parts.find((p) => p.app === app && String(p.part) === part);
}

/** Every `#/components/<kind>/<name>` reference under `value`. */
function references(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) references(v, found);
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') found.add(v);
      else references(v, found);
    }
  }
}

/** The document of one part's paths, with only the components they reach (transitively) and the tags they use. */
export function partDocument(document: OpenApiDocument, part: DocumentPart): OpenApiDocument {
  const wanted = new Set(part.resources);
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => {
    const place = placeOf(path);
    return place?.app === part.app && wanted.has(place.resource);
  }));
  const reached = new Set<string>();
  references(paths, reached);
  const pending = [...reached];
  const components: Record<string, Record<string, unknown>> = {};
  while (pending.length) {
    const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(pending.pop()!) ?? [];
    const source = (document.components as unknown as Record<string, Record<string, unknown>>)[kind];
    if (!source?.[name] || components[kind]?.[name]) continue;
    (components[kind] ??= {})[name] = source[name];
    const inner = new Set<string>();
    references(source[name], inner);
    for (const ref of inner) {
      if (reached.has(ref)) continue;
      reached.add(ref);
      pending.push(ref);
    }
  }
  const used = new Set(Object.values(paths).flatMap((item) => Object.values(item as Record<string, { tags?: string[] }>).flatMap((op) => op?.tags ?? [])));
  return {
    ...document,
    info: { ...document.info, title: `${document.info.title}: ${partLabel(part)}` },
    paths,
    components: { ...components, securitySchemes: document.components.securitySchemes } as unknown as OpenApiDocument['components'],
    tags: document.tags.filter((t) => used.has(t.name)),
  };
}
