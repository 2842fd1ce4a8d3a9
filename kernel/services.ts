import type { InjectionToken } from 'tsyringe';
import type { Settings } from './config/settings.js';
import type { Database } from './db/database.js';
import type { EventBus } from './events/bus.js';
import type { FilterSets } from './filters/filterset.js';
import type { Logger } from './log.js';
import type { ModelRegistry } from './model/registry.js';
import type { QueuePort } from './queue/port.js';
import type { RestServices } from './rest/services.js';

/** Typed keys of the kernel's services in a server's DI container. */
export const Services = {
  settings: Symbol('settings') as InjectionToken<Settings>,
  database: Symbol('database') as InjectionToken<Database>,
  registry: Symbol('registry') as InjectionToken<ModelRegistry>,
  queue: Symbol('queue') as InjectionToken<QueuePort>,
  events: Symbol('events') as InjectionToken<EventBus>,
  filters: Symbol('filters') as InjectionToken<FilterSets>,
  log: Symbol('log') as InjectionToken<Logger>,
  /** Everything the generic REST views use, for plugins' own endpoints. */
  rest: Symbol('rest') as InjectionToken<RestServices>,
};
