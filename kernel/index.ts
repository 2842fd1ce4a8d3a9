/**
 * The public plugin API of the Patchbay kernel: everything a plugin (built-in or third-party) may import.
 * The write machinery, the hook lists and the event bus stay inside; plugins read and write through
 * `ctx.as(req)` and `ctx.system` (see docs/plugins.md).
 */
export { definePlugin, CommandError, type PluginCommand, type Plugin, type PluginContext, type PluginDefinition, type DemoData, type DemoPart, type DemoSize, type DemoStep, type EventHooks, type JobFunction, type ModelAction, type PluginJob, type TaskSubject } from './plugin.js';
/** superstruct, which a plugin's `config.schema` is written in: `struct.object({ local_as: struct.integer() })`. */
export * as struct from './base/struct.js';
export type { Alongside, DataAccess, ListQuery } from './plugins/data.js';
export { detailId, detailObject } from './plugins/data.js';
export type { HttpSurface, Mount, MountOptions, PageLink, PageRenderer, RequestHook } from './app/surface.js';
export { guarded } from '@patchbay/guards';
export { drawnIds, insertAll, inBatches, type InsertOptions } from './base/batches.js';
export { writeBehind } from './db/write-behind.js';
export { idArray, whereIdIn } from './base/typed-arrays.js';
export type { MetricsDeclarations, MetricSpec, CounterMetric, HistogramMetric, GaugeMetric, Labels } from './metrics/registry.js';
export type { GraphqlContribution, GraphqlFieldContribution } from './graphql/contribution.js';
export type { FilterContribution } from './graphql/filters.js';
export { viaQueryFilter } from './graphql/lookups.js';

// Models and their fields.
export { defineModel } from './model/define.js';
export { nestedGroup, type NestedGroupDeclaration, type NestedGroupOptions } from './model/nested-group.js';
export { f, defineChoices, ChoiceSet } from './model/fields/index.js';
export type {
  Model, ModelDeclaration, ModelHooks, AuthorizeContext, DisplayLoader, ModelValidator, ModelCheck, CheckedRow, SaveItem, SavedItem, UniqueConstraint, ValidateContext, WriteAuthorizer,
} from './model/model.js';
export type { ModelRegistry, Contributor, Dependent } from './model/registry.js';
export type { ObjectTypes } from './model/object-types.js';
export type { OfferedList, BackLink } from './model/offered-lists.js';
export { loadDisplays } from './model/display.js';
export type { FieldSelection } from './model/render.js';
export type { TemplateRenderer, RenderInput } from './render/renderer.js';
export type { ObjectQuery } from '@patchbay/render';
export { Batcher } from './model/batch.js';
export { appendTo } from './base/collections.js';
export { Coalesced } from './base/coalesced.js';

// Defining a field kind.
export {
  Field, plainRenderer, snapshotValue,
  type CheckEntry, type CleanupContext, type SelectedSql, type Column, type CommonOptions, type DerivedField, type ExpressionIndex, type GeneratedColumn, type JoinTable, type ObjectRef, type Reference,
  type StoreEntry, type WriteValues,
} from './model/field.js';
export {
  ScalarField, StringField, IntegerField, BooleanField, SlugField, EmailField, UrlField, UuidField, ColorField, TimeZoneField, DecimalField, TemporalField, DateTimeField, DateField, JsonField,
  type StringOptions, type IntegerOptions, type DecimalOptions, type TemporalOptions, type JsonOptions,
} from './model/fields/scalar.js';
export { ChoiceField, type ChoiceOptions, type EnumNaming } from './model/fields/choice.js';
export { ForeignKeyField, ParentField, type ForeignKeyOptions, type OnDelete } from './model/fields/foreign-key.js';
export { GenericForeignKeyField, type GenericOptions } from './model/fields/generic.js';
export { ImageField, type ImageOptions } from './model/fields/image.js';
export { ListField, type ListOptions } from './model/fields/list.js';
export { ReverseField, type ReverseOptions } from './model/fields/reverse.js';
export { CountField, RelatedCountField } from './model/fields/computed.js';
export { DisplayField } from './model/fields/standard.js';
export { ManyToManyField, type ManyToManyOptions } from './model/fields/many-to-many.js';
export { ReadOnlyField } from './model/fields/read-only.js';
export { ComputedField } from './model/fields/computed.js';
export type { PropertyDescription, ValueSchema } from './model/description.js';
export type { OrderStep } from './model/ordering.js';
export type { Walk, RowRefs, Relate } from './model/walk.js';
export { relationCondition, type RelationLink } from './model/fields/relation.js';
export type { Comparison, CompileScope } from './filters/compile.js';
export { SCALAR_LOOKUPS, EQUALITY_LOOKUPS, ORDER_LOOKUPS, TEXT_LOOKUPS, escapeLike, type LookupSql, type Lookups } from './filters/lookups.js';
export { parseDate, parseDateTime } from './base/time.js';
export { userRegex, type UserRegex } from './model/regex.js';
export { checkJsonSchema, schemaViolation } from './model/json-schema.js';

// The OpenAPI document: what a plugin says of its extra routes.
export type { RouteOperation } from './openapi/routes.js';
export type { SchemaObject, ParameterObject } from './openapi/types.js';

// Filters.
export { and, or, not, cmp, type FilterNode, type Lookup, type SqlCondition } from './filters/tree.js';
export { takesParam, type FilterLookup, type QueryParams } from './filters/query.js';
export {
  textFilter, orderedFilter, booleanFilter, relationFilter, existingIds, anyOf, lastValue, checkRegex,
  type QueryFilter, type FilterContext,
} from './filters/builders.js';
export type { FilterExtension } from './model/filter-sets.js';
export { ParamError, FilterError } from './filters/errors.js';
export { parseBoolean, parseWholeNumber, parseNumber } from './filters/values.js';

// Migrations: a plugin's (`manage makemigrations` writes them) extend this class.
export { Migration } from '@mikro-orm/migrations';

// Writes, changes and events.
export type { WriteSession, WriteOptions, Target } from './write/session.js';
export { lockedRow, storedRow, storedRowsWhere } from './model/stored.js';
export type { WriteContext, WriteScope, Actor, WriteMode, ReferenceOptions } from './write/context.js';
export type { ChangeRecord } from './write/changes.js';
export type { Action } from './write/gate.js';
export { EVENT_TYPES, OBJECT_EVENT_TYPES, JOB_EVENT_TYPES, isoTimestamp, type ObjectEvent, type EventType, type ObjectEventType, type EventClaim } from './events/event.js';

// Values, errors and HTTP helpers.
export { ValidationError, ItemErrors, type Memo, type Row, type Json, type JsonObject, type ErrorMap, type Db, type RenderContext, type RenderMode, type FieldRenderer } from './base/types.js';
export { HttpError, notFound } from './base/errors.js';
export { escapeHtml, checkTexts } from './base/text.js';
export { send } from './http/respond.js';
export { isPlainObject, isStoredId, pythonType } from './base/values.js';
export { paginate, pageOf, type Page } from './rest/pagination.js';
export { API_VERSION, PATCHBAY_VERSION } from './base/version.js';

// Services by token, tracked jobs and the queue.
export { Services, serviceToken, type ServiceToken, type Clock } from './services.js';
export type { RequestLoadPort } from './http/request-load.js';
export type { ServiceOverrides, Provided } from './providers.js';
export { provide, type Provision, type ServiceResolver, type ServiceFactory } from './plugins/services.js';
export { JobFailed, type TrackOptions, type TrackedJobs } from './queue/tracked.js';
export {
  TASK_STATUSES, abandonedMessage, type JobRun, type LogLevel, type EnqueueOptions, type QueuePort, type RunAttempt, type Task, type TaskStatus, type WorkerState, type JobHandler, type AbandonedHandler, type QueueStats,
} from '@patchbay/queue';
export type { EventOutboxPort, StoredEvents } from './events/outbox.js';
export type { Logger, LogFields } from './base/log.js';
export type { Settings, settingsStruct } from './config/settings.js';

// Authentication: the accounts service an app provides, and the checks its pages and routes share.
export type { Accounts, Grant } from './auth/accounts.js';
export type { AuthUser, Principal } from './auth/principal.js';
export type { KnownToken } from './auth/token-cache.js';
export { keyDigest } from './auth/tokens.js';
export { requireStaff } from './auth/access.js';
export { constraintProblem } from './auth/constraints.js';
export { csrfFailure, csrfFailurePage, sentCsrfToken } from './auth/csrf.js';

// Pages and routes of an app's own.
export { BROWSABLE_FILES, PAGE_POLICY, pageHtml, type PageFrame } from './http/pages.js';
export { staticAssets, type Asset } from './http/assets.js';
export { requestedPath } from './http/scope.js';
export { modelsByPath } from './model/paths.js';
export { baseUrl } from './http/request.js';
export { formatDateTime } from './base/time.js';
