import type { InjectionToken } from 'tsyringe';
import type { Knex } from '@mikro-orm/knex';
import type { Settings } from './config/settings.js';
import type { Accounts } from './auth/accounts.js';
import type { Logger } from './base/log.js';
import type { MetricsDeclarations } from './metrics/registry.js';
import type { ModelRegistry } from './model/registry.js';
import type { TrackedJobs } from './queue/tracked.js';
import type { EventOutboxPort } from './events/outbox.js';
import type { QueuePort } from '@patchbay/queue';
import type { TemplateRenderer } from './render/renderer.js';
import type { RequestLoadPort } from './http/request-load.js';

/** A typed key of a service in a server's DI container: the kernel's, or one a plugin provides to others. */
export type ServiceToken<T> = InjectionToken<T> & symbol;

/** A token named `name` (`dcim.cabling`): the name is what start-up errors print. */
export function serviceToken<T>(name: string): ServiceToken<T> {
  return Symbol(name) as ServiceToken<T>;
}

/** What the server's clock says: replaceable in the container, as every service is. */
export interface Clock {
  now(): number;
}

/**
 * The kernel's services. Each has a default provider in `createServer` (accounts and jobs are provided by the users
 * and core plugins); plugins resolve them with `ctx.services.get(Services.<name>)`, and a server's `providers` option
 * replaces any of them.
 */
export const Services = {
  settings: serviceToken<Settings>('settings'),
  registry: serviceToken<ModelRegistry>('registry'),
  log: serviceToken<Logger>('log'),
  clock: serviceToken<Clock>('clock'),
  /** The database, as knex: direct SQL for a plugin's own tables. */
  db: serviceToken<Knex>('db'),
  queue: serviceToken<QueuePort>('queue'),
  /** The transactional outbox: events handed to their receivers in the writer's transaction, their work done after its commit. */
  events: serviceToken<EventOutboxPort>('events'),
  render: serviceToken<TemplateRenderer>('render'),
  metrics: serviceToken<MetricsDeclarations>('metrics'),
  /** Users, tokens, sessions and permissions as authentication reads them: provided by the users plugin. */
  accounts: serviceToken<Accounts>('accounts'),
  /** Tracked jobs (`ctx.jobs`): provided by the core plugin. */
  jobs: serviceToken<TrackedJobs>('jobs'),
  /** This process's requests, which its background work yields to (`yieldToRequests()` before each step). */
  requests: serviceToken<RequestLoadPort>('requests'),
};

/** The description of a token, for messages. */
export const tokenName = (token: symbol): string => token.description ?? token.toString();
