import { CHANGELOG_MESSAGE, type PropertyDescription, type ValueSchema } from '../model/description.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { SchemaObject } from './types.js';

/** Component names of a server's models (`Interface`, `CircuitTermination`), prefixed by the app where two clash. */
export function componentNames(registry: ModelRegistry): Map<string, string> {
  const pascal = (text: string) => text.replace(/(^|[\s_-]+)(\w)/g, (_m, _s, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
  const models = registry.all().filter((m) => m.served);
  const counts = new Map<string, number>();
  for (const m of models) counts.set(pascal(m.verboseName), (counts.get(pascal(m.verboseName)) ?? 0) + 1);
  return new Map(models.map((m) => [m.key, counts.get(pascal(m.verboseName))! > 1 ? pascal(`${m.app} ${m.verboseName}`) : pascal(m.verboseName)]));
}

export const ref = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` });

/** A value with its nullability: a `$ref` cannot carry siblings in OpenAPI 3.0, so a nullable one is wrapped. */
function nullable(schema: SchemaObject, isNullable: boolean): SchemaObject {
  if (!isNullable) return schema;
  return schema.$ref ? { allOf: [schema], nullable: true } : { ...schema, nullable: true };
}

const STANDARD_FORMATS = new Set(['date', 'date-time', 'uuid', 'int64']);

/** The scalar part of a value schema (type, format, bounds). */
function scalar(v: ValueSchema, forRequest: boolean): SchemaObject {
  const out: SchemaObject = {};
  switch (v.type) {
    case 'json':
      return {};
    case 'object':
      return { type: 'object', additionalProperties: true };
    case 'array':
      return { type: 'array', items: v.items ? scalar(v.items, forRequest) : {} };
    default:
      out.type = v.type;
  }
  // Formats a blank value would fail (`email`, `uri`) are left to the descriptions of the fields.
  if (v.format === 'decimal') out.type = 'number';
  else if (v.format && STANDARD_FORMATS.has(v.format)) out.format = v.format;
  if (forRequest && v.maxLength !== undefined) out.maxLength = v.maxLength;
  if (forRequest && v.minimum !== undefined) out.minimum = v.minimum;
  if (forRequest && v.maximum !== undefined) out.maximum = v.maximum;
  return out;
}

/** What response schemas are built with: the models and their component names. */
export interface SchemaContext {
  registry: ModelRegistry;
  names: Map<string, string>;
}

/** A nested object: the target's nested form, or exactly the keys a field nests it with. */
function nestedObject(target: string, keys: string[] | undefined, ctx: SchemaContext): SchemaObject {
  if (!keys) return ref(`Nested${ctx.names.get(target)}`);
  const model = ctx.registry.get(target);
  return keyedObject(model, keys, ctx);
}

/** An object of exactly `keys` of `model`'s representation. */
function keyedObject(model: Model, keys: string[], ctx: SchemaContext): SchemaObject {
  const properties: Record<string, SchemaObject> = {};
  for (const key of keys) {
    const p = ctx.registry.fieldOf(model, key)?.describe(ctx.registry).find((d) => d.key === key);
    if (p) properties[key] = responseProperty(p, ctx);
  }
  return { type: 'object', properties, required: Object.keys(properties) };
}

/** How a key reads in a response: nested objects for relations, `{value, label}` for choices. */
export function responseProperty(p: PropertyDescription, ctx: SchemaContext): SchemaObject {
  const described: SchemaObject = p.helpText ? { description: p.helpText } : {};
  if (p.relation && ctx.names.has(p.relation)) {
    if (p.type === 'array') return { ...described, type: 'array', items: nestedObject(p.relation, p.nestedKeys ?? p.items?.nestedKeys, ctx) };
    return { ...described, ...nullable(nestedObject(p.relation, p.nestedKeys, ctx), p.nullable) };
  }
  if (p.type === 'array' && p.items?.relation && ctx.names.has(p.items.relation)) {
    return { ...described, type: 'array', items: nestedObject(p.items.relation, p.items.nestedKeys, ctx) };
  }
  if (p.choices && p.labelled) {
    const numeric = p.choices.every((c) => typeof c.value === 'number');
    return {
      ...described,
      type: 'object',
      properties: {
        value: { type: numeric ? 'integer' : 'string', enum: p.choices.map((c) => c.value) },
        label: { type: 'string', enum: [...new Set(p.choices.map((c) => c.label))] },
      },
      required: ['value', 'label'],
      // A blank choice reads as null, as NetBox's ChoiceField does.
      nullable: true,
    };
  }
  if (p.choices) return { ...described, type: 'string', enum: [...p.choices.map((c) => c.value), ...(p.nullable ? [null] : [])], nullable: p.nullable || undefined };
  return { ...described, ...nullable(scalar(p, false), p.nullable || p.type === 'json') };
}

/** How a key is written: related objects by id or attributes, choices by value. */
export function requestProperty(p: PropertyDescription): SchemaObject {
  const described: SchemaObject = p.helpText ? { description: p.helpText } : {};
  if (p.relation) {
    const one: SchemaObject = { oneOf: [{ type: 'integer' }, { type: 'object', additionalProperties: true, description: 'Attributes matching exactly one object' }] };
    if (p.type === 'array') return { ...described, type: 'array', items: one };
    return { ...described, ...one, nullable: p.nullable || undefined };
  }
  if (p.choices) {
    const numeric = p.choices.every((c) => typeof c.value === 'number');
    // A blank choice is written as '' or null (as it reads); a nullable one as null.
    const empty = p.nullable || p.blank;
    const values: (string | number | null)[] = [...p.choices.map((c) => c.value), ...(p.blank ? [''] : []), ...(empty ? [null] : [])];
    return { ...described, type: numeric ? 'integer' : 'string', enum: values, 'x-enum-labels': p.choices.map((c) => c.label), nullable: empty || undefined };
  }
  return { ...described, ...scalar(p, true), nullable: p.nullable || undefined };
}

/**
 * The response schema of a model's representation: `full`, its `brief` form (`?brief=1`), or `nested` (the brief
 * form inside another object, without the counts NetBox leaves out there).
 */
export function objectSchema(model: Model, ctx: SchemaContext, mode: 'full' | 'brief' | 'nested'): SchemaObject {
  const { registry } = ctx;
  const properties: Record<string, SchemaObject> = {};
  const keys = mode === 'full' ? undefined : new Set(model.brief);
  for (const field of registry.outputFields(model, mode === 'full' ? 'full' : 'brief')) {
    if (mode === 'nested' && !field.rendersNested) continue;
    for (const p of field.describe(registry)) {
      if (p.writeOnly || (keys && !keys.has(p.key))) continue;
      properties[p.key] = { ...responseProperty(p, ctx), ...(p.readOnly ? { readOnly: true } : {}) };
    }
  }
  return { type: 'object', properties, required: Object.keys(properties) };
}

/** The request schema of a create or replace (`required`) or of a change (nothing required). */
export function requestSchema(model: Model, registry: ModelRegistry, partial: boolean): SchemaObject {
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  for (const field of registry.outputFields(model, 'full')) {
    for (const p of field.describe(registry)) {
      if (p.readOnly) continue;
      properties[p.key] = requestProperty(p);
      if (p.required && !partial) required.push(p.key);
    }
  }
  properties[CHANGELOG_MESSAGE.key] = requestProperty(CHANGELOG_MESSAGE);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
