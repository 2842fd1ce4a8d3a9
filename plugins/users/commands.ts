import { parseArgs } from 'node:util';
import { CommandError, ItemErrors, ValidationError, type PluginCommand, type PluginContext, type Row } from 'patchbay';
import { passwordProblem } from './password.js';
import { Terminal } from './prompt.js';

/** A mistake in the arguments: the message alone, exit code 2. */
class UsageError extends CommandError {
  constructor(message: string) {
    super(message, 2);
  }
}

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

function report(err: unknown): number {
  if (err instanceof ValidationError || err instanceof ItemErrors) {
    const errors = err instanceof ItemErrors ? err.first().errors : err.errors;
    for (const [field, messages] of Object.entries(errors)) process.stderr.write(`${field}: ${messages.join(' ')}\n`);
    return 1;
  }
  throw err;
}

async function findUser(ctx: PluginContext, username: string): Promise<Row> {
  const user = (await ctx.db('users_user').where('username', username).first()) as Row | undefined;
  if (!user) throw new UsageError(`No user called ${username}`);
  return user;
}

/** What is missing asked on a terminal, before the server starts (its start-up lines would interleave with the questions). */
async function onTerminal<T>(ask: (term: Terminal) => Promise<T>): Promise<T> {
  const term = new Terminal();
  try {
    return await ask(term);
  } finally {
    term.close();
  }
}

type SuperuserInput = { username: string; password: string; email: string };

/** `createsuperuser [--username U] [--password P] [--email E]`; asks for what is missing on a terminal. */
const createsuperuser: PluginCommand<Record<string, unknown>, SuperuserInput> = {
  usage: 'createsuperuser [--username U] [--password P] [--email E]',
  help: 'Create a superuser (asks for what is missing on a terminal).',
  options: {
    '--username U': 'The new user\'s name (asked for on a terminal when missing).',
    '--password P': 'Their password (asked for twice, hidden, on a terminal when missing; it must pass the password rules).',
    '--email E': 'Their e-mail address (default none).',
  },
  input: (args) => onTerminal(async (term) => {
    const opts = options(args, { username: 'string', password: 'string', email: 'string' });
    const name = await username(opts.username, term);
    return { username: name, password: await password(opts.password, term), email: typeof opts.email === 'string' ? opts.email : '' };
  }),
  async run(_args, ctx, input) {
    try {
      // Command-line writes belong to no user; each command is one request.
      await ctx.system.write((session) => session.create(ctx.registry.get('users.user'), [{ ...input, is_superuser: true, is_staff: true }]));
      process.stdout.write(`Superuser ${input.username} created.\n`);
      return 0;
    } catch (err) {
      return report(err);
    }
  },
};

/** `changepassword --username U [--password P]`. */
const changepassword: PluginCommand<Record<string, unknown>, { username: string; password: string }> = {
  usage: 'changepassword --username U [--password P]',
  help: "Change a user's password.",
  options: {
    '--username U': 'The user whose password changes.',
    '--password P': 'The new password (asked for twice, hidden, on a terminal when missing).',
  },
  input: (args) => onTerminal(async (term) => {
    const opts = options(args, { username: 'string', password: 'string' });
    if (typeof opts.username !== 'string') throw new UsageError('--username is required');
    return { username: opts.username, password: await password(opts.password, term) };
  }),
  async run(_args, ctx, input) {
    try {
      const user = await findUser(ctx, input.username);
      await ctx.system.write((session) => session.update(ctx.registry.get('users.user'), [{ id: user.id, body: { password: input.password } }], 'partial'));
      process.stdout.write(`Password changed for ${input.username}.\n`);
      return 0;
    } catch (err) {
      return report(err);
    }
  },
};

/** `createtoken --username U [--read-only] [--expires ISO] [--description D]`: prints the new key. */
const createtoken: PluginCommand<Record<string, unknown>, Record<string, string | boolean | undefined>> = {
  usage: 'createtoken --username U [--read-only] [--expires ISO] [--description D]',
  help: 'Create an API token for a user and print its key.',
  options: {
    '--username U': 'The user the token acts as.',
    '--read-only': 'The token may only read (write_enabled false).',
    '--expires ISO': 'When the token stops working, as an ISO 8601 date and time (default never).',
    '--description D': 'What the token is for.',
  },
  input(args) {
    const opts = options(args, { username: 'string', 'read-only': 'boolean', expires: 'string', description: 'string' });
    if (typeof opts.username !== 'string') throw new UsageError('--username is required');
    return opts;
  },
  async run(_args, ctx, opts) {
    try {
      const user = await findUser(ctx, opts.username as string);
      const body = { user: user.id, write_enabled: !opts['read-only'], expires: opts.expires ?? null, description: opts.description ?? '' };
      const [row] = await ctx.system.write((session) => session.create(ctx.registry.get('users.token'), [body]));
      process.stdout.write(`${row.key}\n`);
      return 0;
    } catch (err) {
      return report(err);
    }
  },
};

/** The users app's `manage` commands. */
export const userCommands: Record<string, PluginCommand> = { createsuperuser, changepassword, createtoken };
