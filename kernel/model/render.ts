import type { Field } from './field.js';
import type { Model } from './model.js';
import type { ModelRegistry } from './registry.js';
import type { JsonObject, RenderContext, RenderMode, Row } from '../base/types.js';

/** The keys a brief representation shows, in order: those its fields render that the model's brief names. */
export function briefKeys(model: Model, registry: ModelRegistry): string[] {
  return registry.outputFields(model, 'brief').flatMap((f) => readKeys(f, registry)).filter((k) => model.brief.includes(k));
}

/** `?fields=` and `?omit=`: which keys of a representation to render. */
export interface FieldSelection {
  only?: ReadonlySet<string>;
  omit?: ReadonlySet<string>;
}

const keysCache = new WeakMap<Field, string[]>();

/** The keys a field renders (its description's readable keys). */
export function readKeys(field: Field, registry: ModelRegistry): string[] {
  let keys = keysCache.get(field);
  if (!keys) {
    keys = field.describe(registry).filter((p) => !p.writeOnly).map((p) => p.key);
    keysCache.set(field, keys);
  }
  return keys;
}

/**
 * Renders a page of rows of one model. Each field prepares once for the whole page (one query at most per
 * related model), so the query count does not depend on the number of rows; a field the selection leaves
 * out is not prepared at all.
 */
export async function renderRows(
  model: Model, rows: Row[], ctx: RenderContext, mode: RenderMode, selection?: FieldSelection, only?: readonly Field[],
): Promise<JsonObject[]> {
  // A brief form shows exactly the keys it names, also of fields rendering several (a generic relation's type and id).
  if (mode === 'brief' && !only) selection = { only: intersect(new Set(model.brief), selection?.only), omit: selection?.omit };
  const wanted = (key: string) => (!selection?.only || selection.only.has(key)) && !selection?.omit?.has(key);
  const fields = renderedFields(model, ctx.registry, mode, selection, only);
  // Side by side, so that fields loading alike (a page's counts) share one query.
  const renderers = await Promise.all(fields.map((field) => field.prepare(rows, ctx, mode, selection && wanted)));
  // Fields with several keys (generic relations) may be only partly selected.
  const unwanted = selection ? fields.flatMap((f) => readKeys(f, ctx.registry).filter((k) => !wanted(k))) : [];
  let shape: JsonObject | undefined;
  return rows.map((row) => {
    const out: JsonObject = shape ? { ...shape } : {};
    for (const render of renderers) render(row, out);
    for (const key of unwanted) delete out[key];
    if (!shape) {
      shape = blank(out);
      return Object.assign({ ...shape }, out);
    }
    for (const key in shape) if (out[key] === undefined) delete out[key];
    return out;
  });
}

/**
 * The keys of `row` in order, each undefined: the shape the rows after it are rendered into. V8 turns an object that
 * is given more than a dozen keys one by one (`out[key] = …`) into a dictionary, costly to fill and to stringify
 * (a page of 50 tenants allocated 150 KB for its ten counts alone); a copy of an object holding every key stays fast.
 * A key a row leaves unset is taken out again.
 */
function blank(row: JsonObject): JsonObject {
  // Undefined only until rendered: a key still undefined is deleted before the row is returned.
  return Object.fromEntries(Object.keys(row).map((key) => [key, undefined])) as Record<string, unknown> as JsonObject;
}

const intersect = (a: ReadonlySet<string>, b?: ReadonlySet<string>): ReadonlySet<string> => (b ? new Set([...a].filter((k) => b.has(k))) : a);

/** The fields a representation renders: the mode's, or `only`, narrowed by the selection. */
export function renderedFields(model: Model, registry: ModelRegistry, mode: RenderMode, selection?: FieldSelection, only?: readonly Field[]): readonly Field[] {
  const fields = only ?? registry.outputFields(model, mode);
  if (!selection) return fields;
  const wanted = (key: string) => (!selection.only || selection.only.has(key)) && !selection.omit?.has(key);
  return fields.filter((f) => readKeys(f, registry).some(wanted));
}

/**
 * The columns rendering `fields` reads, to select instead of `*` (brief and nested forms read a few of many); undefined
 * when one of them needs the whole row.
 */
export function columnsRead(fields: readonly Field[]): string[] | undefined {
  const columns = new Set(['id']);
  for (const field of fields) {
    const reads = field.reads();
    if (!reads) return undefined;
    reads.forEach((c) => columns.add(c));
  }
  return [...columns];
}
