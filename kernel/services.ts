import type { InjectionToken } from 'tsyringe';
import type { Settings } from './config/settings.js';
import type { Logger } from './log.js';
import type { ModelRegistry } from './model/registry.js';
import type { QueuePort } from './queue/port.js';

/** Typed keys of the kernel's public services in a server's DI container (plugins register their own beside them). */
export const Services = {
  settings: Symbol('settings') as InjectionToken<Settings>,
  registry: Symbol('registry') as InjectionToken<ModelRegistry>,
  queue: Symbol('queue') as InjectionToken<QueuePort>,
  log: Symbol('log') as InjectionToken<Logger>,
};
