import type { FieldMetadata } from '../model/field.js';
import { GenericForeignKeyField } from '../model/fields/generic.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { JsonObject } from '../model/types.js';

/**
 * The OPTIONS body of a list (`POST` action) or detail (`PUT` action) endpoint, as DRF describes it;
 * the action is listed only when the user may perform it.
 */
export function optionsBody(model: Model, registry: ModelRegistry, kind: 'list' | 'detail', allowed: boolean): JsonObject {
  const body: JsonObject = {
    name: `${model.title} ${kind === 'list' ? 'List' : 'Instance'}`,
    description: '',
    renders: ['application/json', 'text/html'],
    parses: ['application/json', 'multipart/form-data'],
  };
  if (!allowed) return body;
  const fields: Record<string, FieldMetadata> = {};
  for (const field of registry.outputFields(model, 'full')) {
    if (field instanceof GenericForeignKeyField) Object.assign(fields, field.describeKeys(registry));
    else fields[field.name] = field.metadata(registry);
  }
  // Every write may carry a message for the change log (write-only).
  fields.changelog_message = { type: 'string', required: false, read_only: false, label: 'Changelog message' };
  return { ...body, actions: { [kind === 'list' ? 'POST' : 'PUT']: fields } };
}
