import { parseArgs } from 'node:util';
import { bootstrap, type Booted } from '../boot.js';
import type { Plugin } from '../plugin.js';
import { insertObject, parseBody, updateObject } from '../model/store.js';
import { ValidationError, type Row } from '../model/types.js';
import { prompt } from './prompt.js';

class UsageError extends Error {}

function options(args: string[], spec: Record<string, 'string' | 'boolean'>) {
  try {
    return parseArgs({ args, options: Object.fromEntries(Object.entries(spec).map(([k, type]) => [k, { type }])), strict: true }).values as Record<
      string,
      string | boolean | undefined
    >;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function password(given: string | boolean | undefined): Promise<string> {
  if (typeof given === 'string') return given;
  if (!process.stdin.isTTY) throw new UsageError('--password is required when no terminal is attached');
  const first = await prompt('Password: ', true);
  if ((await prompt('Password (again): ', true)) !== first) throw new UsageError('The passwords do not match');
  return first;
}

/** Runs `work` on a migrated database, writing through the same validation as the API. */
async function withDatabase<T>(builtins: Plugin[], work: (booted: Booted) => Promise<T>): Promise<T> {
  const booted = await bootstrap({ builtins });
  try {
    return await work(booted);
  } finally {
    await booted.closeDatabase();
  }
}

function report(err: unknown): number {
  if (err instanceof UsageError) {
    process.stderr.write(`${err.message}\n`);
    return 2;
  }
  if (err instanceof ValidationError) {
    for (const [field, messages] of Object.entries(err.errors)) process.stderr.write(`${field}: ${messages.join(' ')}\n`);
    return 1;
  }
  throw err;
}

async function findUser(booted: Booted, username: string): Promise<Row> {
  const user = (await booted.db.knex('users_user').where('username', username).first()) as Row | undefined;
  if (!user) throw new UsageError(`No user called ${username}`);
  return user;
}

/** `createsuperuser --username U [--password P] [--email E]`; prompts for the password on a terminal. */
export async function createsuperuser(args: string[], builtins: Plugin[]): Promise<number> {
  try {
    const opts = options(args, { username: 'string', password: 'string', email: 'string' });
    if (typeof opts.username !== 'string') throw new UsageError('--username is required');
    const body = { username: opts.username, password: await password(opts.password), email: opts.email ?? '', is_superuser: true, is_staff: true };
    return await withDatabase(builtins, async (booted) => {
      const model = booted.registry.get('users.user');
      await booted.db.knex.transaction(async (trx) => {
        const values = await parseBody(model, body, { db: trx, registry: booted.registry }, 'create');
        await insertObject(model, values, trx);
      });
      process.stdout.write(`Superuser ${opts.username} created.\n`);
      return 0;
    });
  } catch (err) {
    return report(err);
  }
}

/** `changepassword --username U [--password P]`. */
export async function changepassword(args: string[], builtins: Plugin[]): Promise<number> {
  try {
    const opts = options(args, { username: 'string', password: 'string' });
    if (typeof opts.username !== 'string') throw new UsageError('--username is required');
    const username = opts.username;
    return await withDatabase(builtins, async (booted) => {
      const user = await findUser(booted, username);
      const model = booted.registry.get('users.user');
      const body = { password: await password(opts.password) };
      await booted.db.knex.transaction(async (trx) => {
        const values = await parseBody(model, body, { db: trx, registry: booted.registry, instance: user }, 'partial');
        await updateObject(model, user.id as number, values, trx);
      });
      process.stdout.write(`Password changed for ${username}.\n`);
      return 0;
    });
  } catch (err) {
    return report(err);
  }
}

/** `createtoken --username U [--read-only] [--expires ISO] [--description D]`: prints the new key. */
export async function createtoken(args: string[], builtins: Plugin[]): Promise<number> {
  try {
    const opts = options(args, { username: 'string', 'read-only': 'boolean', expires: 'string', description: 'string' });
    if (typeof opts.username !== 'string') throw new UsageError('--username is required');
    const username = opts.username;
    return await withDatabase(builtins, async (booted) => {
      const user = await findUser(booted, username);
      const model = booted.registry.get('users.token');
      const body = { user: user.id, write_enabled: !opts['read-only'], expires: opts.expires ?? null, description: opts.description ?? '' };
      const row = await booted.db.knex.transaction(async (trx) => {
        const values = await parseBody(model, body, { db: trx, registry: booted.registry }, 'create');
        return insertObject(model, values, trx);
      });
      process.stdout.write(`${row.key}\n`);
      return 0;
    });
  } catch (err) {
    return report(err);
  }
}
