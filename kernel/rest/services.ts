import type { Settings } from '../config/settings.js';
import type { Database } from '../db/database.js';
import type { FilterSets } from '../model/filter-sets.js';
import type { ModelRegistry } from '../model/registry.js';
import type { Reader } from '../read/reader.js';
import type { WriteRunner } from '../write/writer.js';

/** What the generic REST views need from the kernel. */
export interface RestServices {
  settings: Settings;
  registry: ModelRegistry;
  db: Database;
  filters: FilterSets;
  reads: Reader;
  writes: WriteRunner;
}
