import { parseArgs } from 'node:util';
import type { Plugin } from '../plugin.js';
import { ItemErrors, ValidationError, type Row } from '../model/types.js';
import { createServer, type PatchbayServer } from '../server.js';
import { passwordProblem } from '../auth/password.js';
import { Terminal } from './prompt.js';

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

const answered = (answer: string | undefined): string => {
  if (answer === undefined) throw new UsageError('Aborted: the input ended.');
  return answer;
};

/** `--username`, or asked for on a terminal until one is given. */
async function username(given: string | boolean | undefined, term: Terminal): Promise<string> {
  if (typeof given === 'string') return given;
  if (!process.stdin.isTTY) throw new UsageError('--username is required when no terminal is attached');
  for (;;) {
    const name = answered(await term.ask('Username: ')).trim();
    if (name) return name;
    process.stderr.write('Error: This field cannot be blank.\n');
  }
}

/** `--password`, or asked for twice on a terminal, again until both agree and the password is acceptable (as Django asks). */
async function password(given: string | boolean | undefined, term: Terminal): Promise<string> {
  if (typeof given === 'string') return given;
  if (!process.stdin.isTTY) throw new UsageError('--password is required when no terminal is attached');
  for (;;) {
    const first = answered(await term.ask('Password: ', true));
    const again = answered(await term.ask('Password (again): ', true));
    const problem = first !== again ? "Your passwords didn't match." : first === '' ? "Blank passwords aren't allowed." : passwordProblem(first);
    if (!problem) return first;
    process.stderr.write(`Error: ${problem}\n`);
  }
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

/** `createsuperuser [--username U] [--password P] [--email E]`; asks for what is missing on a terminal. */
export async function createsuperuser(args: string[], builtins: Plugin[]): Promise<number> {
  const term = new Terminal();
  try {
    const opts = options(args, { username: 'string', password: 'string', email: 'string' });
    const name = await username(opts.username, term);
    const body = { username: name, password: await password(opts.password, term), email: opts.email ?? '', is_superuser: true, is_staff: true };
    term.close();
    return await withServer(builtins, async (server) => {
      // Command-line writes belong to no user; each command is one request.
      await server.system.write((session) => session.create(server.registry.get('users.user'), [body]));
      process.stdout.write(`Superuser ${name} created.\n`);
      return 0;
    });
  } catch (err) {
    return report(err);
  } finally {
    term.close();
  }
}

/** `changepassword --username U [--password P]`. */
export async function changepassword(args: string[], builtins: Plugin[]): Promise<number> {
  const term = new Terminal();
  try {
    const opts = options(args, { username: 'string', password: 'string' });
    if (typeof opts.username !== 'string') throw new UsageError('--username is required');
    const name = opts.username;
    const secret = await password(opts.password, term);
    term.close();
    return await withServer(builtins, async (server) => {
      const user = await findUser(server, name);
      await server.system.write((session) => session.update(server.registry.get('users.user'), [{ id: user.id, body: { password: secret } }], 'partial'));
      process.stdout.write(`Password changed for ${name}.\n`);
      return 0;
    });
  } catch (err) {
    return report(err);
  } finally {
    term.close();
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
