/**
 * The public plugin API of the Patchbay kernel: everything a plugin (built-in or third-party) may import.
 */
export { definePlugin, type Plugin, type PluginContext, type PluginDefinition } from './plugin.js';
export { defineModel } from './model/define.js';
export { f, defineChoices, ChoiceSet } from './model/fields/index.js';
export type { Model, ModelDeclaration, UniqueConstraint, ModelValidator } from './model/model.js';
export { ValidationError, type Row, type Json, type JsonObject, type RenderContext } from './model/types.js';
export { loadDisplays } from './model/display.js';
export { HttpError } from './errors.js';
export type { ModelEvent } from './events/bus.js';
export { Services } from './services.js';
export { API_VERSION, PATCHBAY_VERSION } from './version.js';
export { createServer, type PatchbayServer, type ServerOptions } from './server.js';
export { renderRows } from './model/render.js';
export { baseUrl } from './http/request.js';
export type { FilterExtension, QueryFilter, FilterContext } from './filters/filterset.js';
export { and, or, not, cmp, type FilterNode, type Lookup, type SqlCondition } from './filters/tree.js';
export { ParamError } from './filters/values.js';
export type { ChangeRecord, Actor, WriteSession } from './model/writer.js';
export { Field, type Column, type CommonOptions, type WriteContext, type WriteValues, type FieldMetadata, type FilterKind } from './model/field.js';
export { resolveRelated } from './model/lookup.js';
export { send } from './http/respond.js';
export type { FieldRenderer, Db } from './model/types.js';
export type { ModelRegistry } from './model/registry.js';
export { ForeignKeyField } from './model/fields/foreign-key.js';
export { parseDate, parseDateTime } from './model/fields/time.js';
export { create as createObjects } from './rest/write.js';
export type { RestServices } from './rest/services.js';
