import { inject } from 'vitest';
import type { Settings } from '../../kernel/config/settings.js';
import { bootstrap } from '../../kernel/boot.js';
import type { ServiceOverrides } from '../../kernel/providers.js';
import type { Plugin } from '../../kernel/plugin.js';
import { builtinPlugins } from '../../plugins/index.js';
import type { PatchbayServer } from '../../kernel/server.js';
import { createDatabase, dropDatabase, urlOf, type TestPatchbay } from '../../testing/index.js';
import { startServer as startKit } from '../../testing/server.js';

export type { Body, Reply, RequestOptions } from '../../testing/index.js';
export type { TestUser } from '../../testing/index.js';
/** The kit's server, as Patchbay's own tests start it: on the run's Redis, its database dropped when the file ends. */
export type TestServer = TestPatchbay<PatchbayServer>;

export const EXAMPLE_PLUGIN = './examples/plugins/maintenance/index.ts';

/** Databases the current test file made, dropped when it ends (`dropFileDatabases`). */
const fileDatabases = new Set<string>();

/** A new database (empty, or a copy of `template`) that the test file owns; returns its URL. */
async function fileDatabase(template?: string): Promise<string> {
  const name = await createDatabase(template);
  fileDatabases.add(name);
  return urlOf(name);
}

/** A new empty database on the test PostgreSQL, dropped when the test file ends; returns its URL. */
export function freshDatabase(): Promise<string> {
  return fileDatabase();
}

/**
 * Drops the databases the test file made (a migrated one takes some 22 MB): the suite makes hundreds, and removing
 * them all at its end took longer than dropping each file's while the other file running beside it goes on.
 */
export async function dropFileDatabases(): Promise<void> {
  for (const name of fileDatabases) await dropDatabase(name);
  fileDatabases.clear();
}

let template: Promise<string> | undefined;

/**
 * A new database with every built-in migration applied: a copy of one migrated once per test process (a process
 * runs file after file), which saves each server the seconds its migrations take.
 */
async function migratedDatabase(): Promise<string> {
  template ??= (async () => {
    const name = await createDatabase();
    const booted = await bootstrap({ builtins: builtinPlugins, env: { PATCHBAY_CONFIG: '' }, settings: { DATABASE_URL: urlOf(name), LOG_LEVEL: 'error', SECRET_KEY: 'template' } });
    await booted.closeDatabase();
    return name;
  })();
  return fileDatabase(await template);
}

/**
 * Starts a server with the test kit on a file-owned database (built-in migrations applied; a plugin's apply at start)
 * and the real Redis; or, `joining` another, a second server on its database, queue and media directory, with its
 * admin (as a second machine behind a load balancer).
 */
export async function startServer(options: { plugins?: string[]; settings?: Partial<Settings>; joining?: TestServer; services?: ServiceOverrides; builtins?: Plugin[] } = {}): Promise<TestServer> {
  return startKit({
    ...options,
    settings: {
      ...(options.joining ? {} : { DATABASE_URL: options.settings?.DATABASE_URL ?? (await migratedDatabase()), REDIS_URL: inject('redisUrl') }),
      // No periodic recovery after a failed enqueue during a test (its statements would count in query budgets); tests of it set their own.
      OUTBOX_SWEEP_SECONDS: 3600,
      ...options.settings,
    },
  });
}
