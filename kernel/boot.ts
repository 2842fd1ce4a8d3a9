import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { SettingsError, loadSettings } from './config/load.js';
import type { Settings } from './config/settings.js';
import { withoutPassword } from './config/urls.js';
import { Database } from './db/database.js';
import { EmbeddedDatabase } from '@patchbay/embedded';
import { entityOf, objectTypeEntity } from './db/entities.js';
import { loadMigrations, type MigrationSource } from './db/migrations.js';
import { RowCounts, ensureRowCounts } from './db/row-counts.js';
import { createLogger, type Logger } from './base/log.js';
import { graphqlModels, graphqlTypeNames } from './model/graphql-names.js';
import { ModelRegistry } from './model/registry.js';
import type { Plugin } from './plugin.js';
import { loadPlugins, type EnabledPlugin } from './plugins/loader.js';

export interface BootOptions {
  /** The built-in apps (users and core among them); third-party plugins come from the PLUGINS setting. */
  builtins: Plugin[];
  /** Settings that win over the config file and the environment. */
  settings?: Partial<Settings>;
  env?: NodeJS.ProcessEnv;
  /** Apply pending migrations and register the models' object types (default true). */
  migrate?: boolean;
}

/** Everything but HTTP: settings, plugins, models and a migrated database. */
export interface Booted {
  settings: Settings;
  log: Logger;
  enabled: EnabledPlugin[];
  registry: ModelRegistry;
  db: Database;
  /** Migrations this start-up applied. */
  applied: string[];
  /** The models' row counters (none when the start-up did not migrate). */
  rowCounts: RowCounts;
  /** Closes the pool and stops the embedded PostgreSQL, if one was started. */
  closeDatabase(): Promise<void>;
}

/** What an error says of itself in one line: its code and the first line of its message. */
function reason(err: unknown): string {
  const { code, message } = err as { code?: string; message?: string };
  const first = String(message ?? err).split('\n')[0].trim();
  return code && !first.includes(code) ? `${code}: ${first}` : first;
}

/** The secret, or one generated and kept in DATA_DIR (which must then be writable). */
function secretKey(settings: Settings, log: Logger): string {
  if (settings.SECRET_KEY) return settings.SECRET_KEY;
  const file = resolve(settings.DATA_DIR, 'secret_key');
  try {
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    mkdirSync(settings.DATA_DIR, { recursive: true });
    const key = randomBytes(48).toString('base64url');
    writeFileSync(file, key, { mode: 0o600 });
    log.warn(`SECRET_KEY is not set: generated one in ${file}`);
    return key;
  } catch (err) {
    throw new SettingsError(`DATA_DIR: cannot write to ${resolve(settings.DATA_DIR)} (${reason(err)}); set DATA_DIR to a writable directory`);
  }
}

const KERNEL_MIGRATIONS = new URL('./db/migrations/', import.meta.url);

/**
 * A mistake in the models' declarations, as one start-up line naming the plugin: the registry's messages start with
 * the model's key, whose app is its plugin.
 */
function declarationError(err: unknown, plugins: string[]): SettingsError {
  const message = err instanceof Error ? err.message : String(err);
  const app = /^([a-z][a-z0-9_]*)\.[a-z0-9]+[.:\s]/.exec(message)?.[1];
  return new SettingsError(app && plugins.includes(app) ? `plugin ${app}: ${message}` : `PLUGINS: ${message}`);
}

/** Loads settings and plugins, registers the models and opens (and migrates) the database. */
export async function bootstrap(options: BootOptions): Promise<Booted> {
  const settings = loadSettings(options.settings, options.env);
  const log = createLogger(settings.LOG_LEVEL, settings.LOG_FORMAT);
  const enabled = await loadPlugins(options.builtins, settings);
  settings.SECRET_KEY = secretKey(settings, log);

  const registry = new ModelRegistry();
  try {
    for (const { plugin } of enabled) {
      const ui = plugin.basePath.replace(/^\/api\//, '/');
      for (const model of plugin.models ?? []) registry.register(model, { api: plugin.basePath, ui });
    }
    for (const { plugin } of enabled) if (plugin.contributes) registry.contribute(plugin.name, plugin.contributes);
    registry.finalize();
    graphqlTypeNames(graphqlModels(registry));
    // Defaults that are functions of settings read those of the plugin declaring the field.
    const configs = new Map(enabled.map((e) => [e.plugin.name, e.config]));
    for (const model of registry.all()) {
      for (const field of [...model.fields, ...registry.contributedFields(model)]) field.configure(configs.get(registry.contributorOf(field) ?? model.app) ?? {});
    }
  } catch (err) {
    throw declarationError(err, enabled.map((e) => e.plugin.name));
  }

  const migrations: MigrationSource[] = await loadMigrations('kernel', KERNEL_MIGRATIONS);
  for (const { plugin } of enabled) {
    if (plugin.migrations) migrations.push(...(await loadMigrations(plugin.name, plugin.migrations)));
  }

  let embedded: EmbeddedDatabase | undefined;
  let url = settings.DATABASE_URL;
  if (!url) {
    const dir = resolve(settings.DATA_DIR, 'pg');
    embedded = new EmbeddedDatabase(settings.DATA_DIR);
    try {
      url = await embedded.start((m) => log.info(m), (why) => {
        // Serving on without a database would answer 503 forever: exit, for a supervisor to start the server again.
        log.error(`${why}: exiting`);
        process.exit(1);
      });
    } catch (err) {
      await embedded.stop().catch(() => {});
      throw new SettingsError(`DATA_DIR: the embedded PostgreSQL in ${dir} did not start (${reason(err)}); check that directory, or set DATABASE_URL to use another PostgreSQL`);
    }
    log.info(embedded.attached ? `Using the embedded PostgreSQL of the server running on ${dir}` : `Started an embedded PostgreSQL (data in ${dir})`);
  }

  let db: Database;
  let applied: string[] = [];
  let counted = new Set<string>();
  try {
    // A declaration mistake surfaces here: it must not read as an unreachable database.
    const entities = [objectTypeEntity, ...registry.all().map((m) => entityOf(m, registry))];
    try {
      db = await Database.open(url, entities, migrations, { statementTimeoutMs: settings.STATEMENT_TIMEOUT * 1000, prepared: settings.PREPARED_STATEMENTS, poolSize: settings.DATABASE_POOL_SIZE });
    } catch (err) {
      // The embedded PostgreSQL is DATA_DIR's; any other is DATABASE_URL's.
      const setting = embedded ? 'DATA_DIR' : 'DATABASE_URL';
      throw new SettingsError(`${setting}: cannot connect to ${withoutPassword(url)} (${reason(err)}); check that PostgreSQL runs there and the URL is right`);
    }
    if (options.migrate !== false) {
      applied = await db.migrate(async (trx) => {
        await registry.objectTypes.sync(trx, registry.all());
        counted = await ensureRowCounts(trx, registry.all().map((m) => m.table));
      });
    }
  } catch (err) {
    await embedded?.stop();
    throw err;
  }

  return {
    settings,
    log,
    enabled,
    registry,
    db,
    applied,
    rowCounts: new RowCounts(counted),
    closeDatabase: async () => {
      await db.close();
      await embedded?.stop();
    },
  };
}
