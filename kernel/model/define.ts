import { Model, type ModelDeclaration } from './model.js';
import { standardFields } from './fields/standard.js';

/**
 * Declares a model once; its table, entity schema, serializers, write validation, OPTIONS metadata
 * and routes are all derived from this declaration.
 */
export function defineModel(key: string, declaration: ModelDeclaration): Model {
  return new Model(key, declaration, standardFields());
}
