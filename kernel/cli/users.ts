import { parseArgs } from 'node:util';
import type { Plugin } from '../plugin.js';
import { ItemErrors, ValidationError, type Row } from '../model/types.js';
import { createServer, type PatchbayServer } from '../server.js';
import { promptHidden } from './prompt.js';

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
  const [first, again] = await promptHidden(['Password: ', 'Password (again): ']);
  if (again !== first) throw new UsageError('The passwords do not match');
  return first;
}

/** Runs `work` on a server that does not listen: writes get the API's validation, change log and events. */
async function withServer<T>(builtins: Plugin[], work: (server: PatchbayServer) => Promise<T>): Promise<T> {
  const server = await createServer({ builtins });
  try {
    return await work(server);
  } finally {
    await server.close();
  }
}

function report(err: unknown): number {
  if (err instanceof UsageError) {
    process.stderr.write(`${err.message}\n`);
    return 2;
  }
  if (err instanceof ValidationError || err instanceof ItemErrors) {
    const errors = err instanceof ItemErrors ? err.first().errors : err.errors;
    for (const [field, messages] of Object.entries(errors)) process.stderr.write(`${field}: ${messages.join(' ')}\n`);
    return 1;
  }
  throw err;
}

async function findUser(server: PatchbayServer, username: string): Promise<Row> {
  const user = (await server.db.knex('users_user').where('username', username).first()) as Row | undefined;
  if (!user) throw new UsageError(`No user called ${username}`);
  return user;
}

/** `createsuperuser --username U [--password P] [--email E]`; prompts for the password on a terminal. */
export async function createsuperuser(args: string[], builtins: Plugin[]): Promise<number> {
  try {
    const opts = options(args, { username: 'string', password: 'string', email: 'string' });
    if (typeof opts.username !== 'string') throw new UsageError('--username is required');
    const body = { username: opts.username, password: await password(opts.password), email: opts.email ?? '', is_superuser: true, is_staff: true };
    return await withServer(builtins, async (server) => {
      // Command-line writes belong to no user; each command is one request.
      await server.system.write((session) => session.create(server.registry.get('users.user'), [body]));
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
    const secret = await password(opts.password);
    return await withServer(builtins, async (server) => {
      const user = await findUser(server, username);
      await server.system.write((session) => session.update(server.registry.get('users.user'), [{ id: user.id, body: { password: secret } }], 'partial'));
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
    return await withServer(builtins, async (server) => {
      const user = await findUser(server, username);
      const body = { user: user.id, write_enabled: !opts['read-only'], expires: opts.expires ?? null, description: opts.description ?? '' };
      const [row] = await server.system.write((session) => session.create(server.registry.get('users.token'), [body]));
      process.stdout.write(`${row.key}\n`);
      return 0;
    });
  } catch (err) {
    return report(err);
  }
}
