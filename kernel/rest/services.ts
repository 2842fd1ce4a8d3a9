import type { Settings } from '../config/settings.js';
import type { Database } from '../db/database.js';
import type { EventBus } from '../events/bus.js';
import type { FilterSets } from '../filters/filterset.js';
import type { ModelRegistry } from '../model/registry.js';
import type { ChangeHook } from '../model/writer.js';

/** What the generic REST views need from the kernel. */
export interface RestServices {
  settings: Settings;
  registry: ModelRegistry;
  db: Database;
  bus: EventBus;
  filters: FilterSets;
  /** Plugins' hooks run inside every write transaction. */
  changeHooks: ChangeHook[];
}
