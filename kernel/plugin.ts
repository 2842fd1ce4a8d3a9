import type { HttpSurface } from './app/surface.js';
import type { GraphqlContribution } from './graphql/contribution.js';
import type { RouteOperation } from './openapi/routes.js';
import type { Knex } from '@mikro-orm/knex';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { Struct } from 'superstruct';
import type { DependencyContainer } from 'tsyringe';
import type { Settings } from './config/settings.js';
import type { EventClaim, EventType, ObjectEvent } from './events/event.js';
import type { FilterExtension } from './model/filter-sets.js';
import type { QueryFilter } from './filters/builders.js';
import type { Field } from './model/field.js';
import type { Model } from './model/model.js';
import type { Db } from './base/types.js';
import type { ModelRegistry } from './model/registry.js';
import type { DataAccess } from './plugins/data.js';
import type { AuthUser } from './auth/principal.js';
import type { Provision, ServiceResolver } from './plugins/services.js';
import type { TrackedJobs } from './queue/tracked.js';
import type { JobRun, QueuePort, RunAttempt } from '@patchbay/queue';
import type { Logger } from './base/log.js';
import type { MetricsDeclarations } from './metrics/registry.js';
import type { TemplateRenderer } from './render/renderer.js';
import type { ChangeRecord } from './write/changes.js';

/** An endpoint on each object of a model (`POST /api/dcim/devices/{id}/render-config/`), added by any plugin. */
export interface ModelAction<C = Record<string, unknown>> {
  /** The model, by key (`dcim.device`): the plugin's own or one of a plugin it depends on. */
  model: string;
  /** The last segment of its path. */
  name: string;
  method: 'get' | 'post';
  /** The handler, given the plugin's context and the model. */
  handler(ctx: PluginContext<C>, model: Model): RequestHandler;
  /** What the OpenAPI document says of it. */
  operation?: RouteOperation;
}

/** What a plugin's hooks, routes, jobs and commands receive: its validated config and the kernel's services. */
export interface PluginContext<C = Record<string, unknown>> {
  plugin: Plugin<C>;
  config: C;
  settings: Settings;
  /** Every enabled model, by key (`registry.get('tenancy.tenant')`), and their URLs. */
  registry: ModelRegistry;
  /**
   * Adds query-string filters to models (this plugin's or others'); `of` lists a model's declared filters, `lookup`
   * finds one by name, resolved by an extension too (`cf_<name>`).
   */
  filters: { extend(extension: FilterExtension): void; of(model: Model): ReadonlyMap<string, QueryFilter>; lookup(model: Model, name: string): QueryFilter | undefined };
  queue: QueuePort;
  /**
   * Tracked jobs: `enqueue('<plugin>.<job>', { object, userId, data, scheduleAt, interval })` records a job in
   * `/api/core/jobs/` (status, times, result, log; events for event rules) and runs the plugin's handler.
   */
  jobs: TrackedJobs;
  /** Renders Jinja2 templates in a sandbox (config and export templates), reading models as a request's user may. */
  templates: TemplateRenderer;
  log: Logger;
  /** Reads and writes as the user of a request: their permissions, the request's id in the change log, URLs from its host. */
  as(req: Request): DataAccess;
  /** Reads and writes as `user` (who proved a password, say), with the request's id and host. */
  asUser(req: Request, user: AuthUser): DataAccess;
  /** Reads and writes as the server (jobs, commands): no permission checks; writes are still validated, change-logged and evented. */
  system: DataAccess;
  /** Direct SQL, bypassing validation, permissions and the change log: for bulk maintenance of the plugin's own tables. */
  db: Knex;
  /**
   * Calls `callback` after every committed write that changed objects of `model` (`app.model`), in this process
   * before the write's response, in other processes a moment later: for caches of model data kept in memory.
   */
  watch(model: string, callback: () => Promise<void> | void): void;
  /** Declares the plugin's Prometheus metrics (counters, histograms, gauges read when scraped): served at /metrics. */
  metrics: MetricsDeclarations;
  /**
   * Services by token: the kernel's (`Services.queue`, …), this plugin's own and those its dependencies provide
   * (`provides`); another plugin's service is refused unless that plugin is among `dependencies`.
   */
  services: ServiceResolver;
  /** Every enabled plugin's context, each after the plugins it depends on (for apps that act on all: core's jobs). */
  plugins: readonly PluginContext[];
  /** The server's DI container (prefer `services` and `provides`, which check dependencies). */
  container: DependencyContainer;
}

/** One step of the demo data: a label for the progress bar and set-based SQL in its part's transaction. */
export interface DemoStep {
  label: string;
  /** Inserts what is missing (a rerun adds nothing new); returns how many rows it added. */
  run(db: Db): Promise<number>;
}

/** A size of the demo data: its default, its limit, its help line, and whether the data is built in parts of it. */
export interface DemoSize {
  default: number;
  max: number;
  help: string;
  /**
   * Builds the data `part` of this size at a time (dcim's `sites`: 100), each part in a transaction of its own, two
   * parts at once after the first: what the first builds (catalogs, roles) is committed before the others begin.
   */
  part?: number;
}

/**
 * The numbers of the parted size (`sites`) one call of `steps` builds, from `first` to `last`; a size no plugin
 * parts is built whole, as one part from 1 to 1.
 */
export interface DemoPart {
  first: number;
  last: number;
}

/**
 * A plugin's demo data (`manage generate-demo --<size> N`): sizes are whole numbers with defaults, shared by
 * every plugin that names them (`sites`); steps run after those of the plugins it depends on. `steps` is called
 * once per part: steps for rows every part shares belong to the first part only (`part.first === 1`).
 */
export interface DemoData<C = Record<string, unknown>> {
  sizes: Record<string, DemoSize>;
  steps(sizes: Record<string, number>, ctx: PluginContext<C>, part: DemoPart): DemoStep[];
}

export interface PluginDefinition<C = Record<string, unknown>> {
  /** Lower-case identifier; also the app label of the plugin's models (`<name>.<model>`). */
  name: string;
  version: string;
  /** Semver range of Patchbay kernel versions the plugin works with, e.g. `^0.1`. */
  kernel: string;
  label?: string;
  description?: string;
  /** Who wrote it, as `/api/plugins/installed-plugins/` lists it. */
  author?: string;
  authorEmail?: string;
  /** A release line other than the main one (`beta`), as NetBox's plugin catalog names it. */
  releaseTrack?: string;
  /** Where the plugin's endpoints live. Default `/api/plugins/<name>/`. */
  basePath?: string;
  /** Plugins whose models this one refers to (`['tenancy']`): registered and migrated before it, and required. */
  dependencies?: string[];
  /** Superstruct schema of PLUGINS_CONFIG[<name>] and the defaults merged under it. */
  config?: { schema: Struct<C, unknown>; defaults?: Partial<C> };
  models?: Model[];
  /** Folder of the plugin's MikroORM migrations (timestamped files). */
  migrations?: URL;
  /** More paths serving one of the plugin's models (e.g. NetBox 4.1+'s `/api/core/object-changes/`). */
  aliases?: { path: string; model: Model }[];
  /** Extra endpoints, mounted under the base path (each is listed in the OpenAPI document). */
  routes?: (router: Router, ctx: PluginContext<C>) => void;
  /**
   * Other answers of every list endpoint, chosen by a query parameter (`?export=<template>`): parameter → handler,
   * which answers the request itself (the list's filters are in `req.query`).
   */
  listOutputs?: Record<string, (req: Request, res: Response, model: Model, ctx: PluginContext<C>) => Promise<void>>;
  /** What the OpenAPI document says of the extra endpoints, by `METHOD /path/{id}/` below the base path. */
  operations?: Record<string, RouteOperation>;
  /**
   * Endpoints on the objects of a model, the plugin's own or a dependency's (extras' `render-config` on devices and
   * virtual machines): `<METHOD> <the model's API path>{id}/<name>/`, listed in the OpenAPI document with the model's.
   */
  actions?: ModelAction<C>[];
  /** What the plugin adds to the GraphQL schema beyond what its models derive: fields on types, filters, type definitions. */
  graphql?: (ctx: PluginContext<C>) => GraphqlContribution;
  /** Paths outside the base path (a page, `/metrics`) and hooks around every request, on the server's HTTP surface. */
  http?: (surface: HttpSurface, ctx: PluginContext<C>) => void;
  /** Called inside the write transaction with the creates, updates or deletes of one model in one write (change logging). */
  changes?: (changes: ChangeRecord[], ctx: PluginContext<C>) => Promise<void> | void;
  /**
   * Creates, updates and deletes, each received once inside the write's transaction: what the hook records there
   * commits or rolls back with the write (a transactional outbox of its own), and its work outside the database runs
   * once the write committed.
   */
  events?: EventHooks<C>;
  /**
   * Background job handlers by job name: enqueue them with `ctx.queue.enqueue('<plugin>.<job>', data, options)`,
   * or tracked with `ctx.jobs.enqueue('<plugin>.<job>', options)` (what a tracked run returns becomes its `data`;
   * throwing `JobFailed` ends it "failed", anything else "errored").
   */
  jobs?: Record<string, PluginJob<C>>;
  /** System jobs: jobs of `jobs` run every so many minutes (`{ housekeeping: 1440 }`), tracked; one waits at a time. */
  schedule?: Record<string, number>;
  /** Fields this plugin adds to other plugins' models, by name (e.g. `tags` on every model declaring the feature). */
  contributes?: (model: Model) => Record<string, Field>;
  /** Its part of `manage generate-demo`: the sizes it takes and the steps that insert its demo data. */
  demo?: DemoData<C>;
  /** Extra `manage` commands by name, run on a server that does not listen. */
  commands?: Record<string, PluginCommand<C>>;
  /** Services this plugin provides to others by token (`provide(TOKEN, (ctx) => service)`), each built on first use. */
  provides?: Provision<unknown, C>[];
  /** Anything else, once at start-up, after every plugin's models are registered. */
  setup?: (ctx: PluginContext<C>) => Promise<void> | void;
  /** When the server starts its work (listening, or `manage worker`), after the event receivers recovered: schedule work. */
  start?: (ctx: PluginContext<C>) => Promise<void> | void;
  /** At shutdown, once no request is served, before the queue and the database close. */
  close?: (ctx: PluginContext<C>) => Promise<void> | void;
}

/**
 * A `manage` command of a plugin. `input` reads the arguments (and asks on a terminal for what is missing) before the
 * server starts; `run` gets what it returned and answers the exit code. A `CommandError` thrown by either prints its
 * message alone and exits with its code.
 */
export interface PluginCommand<C = Record<string, unknown>, I = unknown> {
  usage: string;
  help: string;
  /** Each option or argument as the usage writes it (`--username U`) and what it means: what `--help` lists. */
  options?: Record<string, string>;
  input?(args: string[]): Promise<I> | I;
  run(args: string[], ctx: PluginContext<C>, input: I): Promise<number>;
}

/** A command's refusal: its message is printed alone (no stack) and the process exits with `code`. */
export class CommandError extends Error {
  constructor(message: string, readonly code = 1) {
    super(message);
  }
}

/** A job handler: what a tracked run returns becomes its `data`. */
export type JobFunction<C = Record<string, unknown>> = (data: unknown, ctx: PluginContext<C>, run: JobRun) => Promise<unknown> | unknown;

/**
 * A plugin's job: its handler, or the handler and what to record when one of its queued attempts never reported
 * back (its process died): the queue counts that attempt as failed and retries or fails the job; `abandoned` lets
 * the plugin's own records say so (a webhook delivery's log does).
 */
export type PluginJob<C = Record<string, unknown>> =
  | JobFunction<C>
  | {
    run: JobFunction<C>;
    abandoned?: (data: unknown, ctx: PluginContext<C>, run: RunAttempt) => Promise<void> | void;
    /** What each of these tasks is about, by task id, for the background tasks page (a delivery: its webhook, URL, event, object). */
    subjects?: (tasks: { id: string; data: unknown }[], ctx: PluginContext<C>) => Promise<Map<string, TaskSubject[]>>;
  };

/** One thing a task is about, as the tasks page names it (`Webhook`: `bench receiver`), linked when it has a page. */
export interface TaskSubject {
  /** What it is (`Webhook`, `Object`). */
  label: string;
  /** Which one (its name or display). */
  text: string;
  /** A path of this server (its API page) or an outside URL. */
  href?: string;
}

/** A plugin's part of the event outbox. */
export interface EventHooks<C = Record<string, unknown>> {
  /** The events it takes (default: every one); asked inside each write, so it must answer from memory. */
  wants?(model: string, type: EventType, ctx: PluginContext<C>): boolean;
  /**
   * The events of one write, in its transaction: what it writes through `claim.db` commits or rolls back with the
   * write (durable work, such as webhook deliveries); anything outside the database goes in `claim.afterCommit`,
   * which runs once the write committed (enqueue there).
   */
  receive(events: ObjectEvent[], claim: EventClaim, ctx: PluginContext<C>): Promise<void> | void;
  /** At start, and after an enqueue failed: enqueue again the durable work committed but not enqueued. */
  recover?(ctx: PluginContext<C>): Promise<void> | void;
}

/** A plugin as the kernel uses it: the definition with its base path resolved. */
export interface Plugin<C = Record<string, unknown>> extends PluginDefinition<C> {
  readonly basePath: string;
  readonly __patchbayPlugin: true;
}

const NAME = /^[a-z][a-z0-9_]*$/;

/** The plugin contract: the built-in apps and third-party plugins are declared the same way. */
export function definePlugin<C = Record<string, unknown>>(definition: PluginDefinition<C>): Plugin<C> {
  if (!NAME.test(definition.name)) throw new Error(`Plugin name "${definition.name}" must match ${NAME}`);
  const basePath = definition.basePath ?? `/api/plugins/${definition.name}/`;
  if (!/^\/api\/([a-z0-9_-]+\/)+$/.test(basePath)) {
    throw new Error(`Plugin ${definition.name}: basePath "${basePath}" must look like /api/<segment>/`);
  }
  for (const model of definition.models ?? []) {
    if (model.app !== definition.name) {
      throw new Error(`Plugin ${definition.name}: model ${model.key} must be named ${definition.name}.<model>`);
    }
  }
  return { ...definition, basePath, __patchbayPlugin: true };
}

export function isPlugin(value: unknown): value is Plugin {
  return typeof value === 'object' && value !== null && (value as Plugin).__patchbayPlugin === true;
}
