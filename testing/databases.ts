import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** Where the kit finds PostgreSQL: set by `patchbayVitest()`'s global setup (an embedded one), or TEST_DATABASE_URL. */
export const ADMIN_URL_ENV = 'PATCHBAY_TEST_ADMIN_URL';

/** A PostgreSQL connection allowed to create databases; each test server gets a database of its own on it. */
export function adminUrl(): string {
  const url = process.env[ADMIN_URL_ENV] ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error('patchbay/testing has no PostgreSQL: use patchbayVitest() in vitest.config.ts (it starts one), or set TEST_DATABASE_URL');
  }
  return url;
}

/** Runs `sql` on the admin connection's database. */
async function onAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` beside the admin connection's. */
export function urlOf(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** A new database, empty or a copy of `template` (its files copied: faster than a migration); answers its name. */
export async function createDatabase(template?: string): Promise<string> {
  const name = `test_${randomUUID().replace(/-/g, '')}`;
  await onAdmin(template ? `create database "${name}" template "${template}" strategy file_copy` : `create database "${name}"`);
  return name;
}

/** Drops database `name`, closing what is still connected to it. */
export function dropDatabase(name: string): Promise<void> {
  return onAdmin(`drop database if exists "${name}" with (force)`);
}
