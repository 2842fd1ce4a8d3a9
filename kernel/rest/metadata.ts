import { CHANGELOG_MESSAGE, type PropertyDescription } from '../model/description.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { Json, JsonObject } from '../base/types.js';

/** DRF's metadata type name of a described key, as NetBox's OPTIONS shows it. */
function drfType(p: PropertyDescription): string {
  if (p.format === 'image') return 'image upload';
  if (p.relation) return p.type === 'object' ? 'nested object' : 'field';
  if (p.choices || p.type === 'json' || p.type === 'object') return 'field';
  if (p.type === 'array') return 'list';
  // Read-only strings are DRF's method and identity fields (`display`, `url`), which it types as plain fields.
  if (p.type === 'string' && p.readOnly && p.format !== 'date' && p.format !== 'date-time') return 'field';
  const byFormat: Record<string, string> = { slug: 'slug', email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime', decimal: 'decimal' };
  return (p.format && byFormat[p.format]) || p.type;
}

/** How deep relations list their children (a brief naming a relation describes its target in turn, once). */
const CHILDREN_DEPTH = 2;

/** One key's OPTIONS entry (DRF's SimpleMetadata shape); a relation lists its target's brief keys as children. */
function describeKey(p: PropertyDescription, registry: ModelRegistry, depth = 0): JsonObject {
  const meta: JsonObject = { type: drfType(p), required: p.required, read_only: p.readOnly, label: p.label };
  if (p.helpText) meta.help_text = p.helpText;
  if (p.maxLength !== undefined) meta.max_length = p.maxLength;
  if (p.minimum !== undefined) meta.min_value = p.minimum;
  if (p.maximum !== undefined) meta.max_value = p.maximum;
  if (p.maxDigits !== undefined) meta.max_digits = p.maxDigits;
  if (p.decimalPlaces !== undefined) meta.decimal_places = p.decimalPlaces;
  if (p.choices) meta.choices = p.choices.map(({ value, label }) => ({ value, display_name: label }));
  if (p.type === 'array' && !p.relation && p.items) meta.child = { type: p.items.type, required: true, read_only: false };
  if (p.relation && p.type === 'object' && depth < CHILDREN_DEPTH) {
    const target = registry.get(p.relation);
    const children: JsonObject = {};
    for (const name of target.brief) {
      const child = registry.fieldOf(target, name)?.describe(registry).find((d) => d.key === name);
      if (child) children[name] = describeKey(child, registry, depth + 1);
    }
    meta.children = children;
  }
  return meta;
}

/**
 * The OPTIONS body of a list (`POST` action) or detail (`PUT` action) endpoint, as DRF describes it, from
 * each field's description; the action is listed only when the user may perform it.
 */
export function optionsBody(model: Model, registry: ModelRegistry, kind: 'list' | 'detail', allowed: boolean): JsonObject {
  const body: JsonObject = {
    name: `${model.title} ${kind === 'list' ? 'List' : 'Instance'}`,
    description: '',
    renders: ['application/json', 'text/html'],
    parses: ['application/json', 'multipart/form-data'],
  };
  if (!allowed) return body;
  const fields: Record<string, Json> = {};
  for (const field of registry.outputFields(model, 'full')) {
    for (const p of field.describe(registry)) fields[p.key] = describeKey(p, registry);
  }
  fields[CHANGELOG_MESSAGE.key] = describeKey(CHANGELOG_MESSAGE, registry);
  return { ...body, actions: { [kind === 'list' ? 'POST' : 'PUT']: fields } };
}
