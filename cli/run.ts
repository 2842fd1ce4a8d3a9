import { SettingsError } from '../kernel/config/load.js';
import { CommandError, type Plugin } from '../kernel/plugin.js';
import { demoOptions, demoUsage } from './demo-sizes.js';

/** A `manage` command: takes its arguments and the built-in plugins, returns the exit code. */
export type Command = (args: string[], builtins: Plugin[]) => Promise<number>;

/**
 * Command `name` of a module loaded when the command runs: `manage help` or `migrate` need not load the HTTP server,
 * GraphQL and the queue (about a second of a command's start).
 */
function lazy<K extends string>(load: () => Promise<Record<K, Command>>, name: K): Command {
  return async (args, builtins) => (await load())[name](args, builtins);
}
const migrations = () => import('./migrate.js');

/** A command's usage line, or its options: fixed, or built from the enabled plugins (the demo sizes they take). */
type FromPlugins<T> = T | ((builtins: Plugin[]) => T);

/** What `--help` says of a command: its usage line, what it does, and each option as written in the usage and its meaning. */
interface Described {
  usage: FromPlugins<string>;
  help: string;
  options?: FromPlugins<Record<string, string>>;
}

const resolved = <T,>(value: FromPlugins<T>, builtins: Plugin[]): T => (typeof value === 'function' ? (value as (b: Plugin[]) => T)(builtins) : value);

const COMMANDS: Record<string, Described & { run: Command }> = {
  runserver: {
    run: lazy(() => import('./runserver.js'), 'runserver'),
    usage: 'runserver',
    help: 'Start the HTTP server (what `npm start` runs); migrates first. Its settings come from the environment and PATCHBAY_CONFIG (`manage settings` lists them).',
  },
  worker: {
    run: lazy(() => import('./worker.js'), 'worker'),
    usage: 'worker',
    help: 'Run background jobs (webhook deliveries) from the Redis queue; start several, on several machines.',
  },
  webhook_receiver: {
    run: lazy(() => import('./webhook-receiver.js'), 'webhookReceiver'),
    usage: 'webhook_receiver [--port N] [--host ADDRESS]',
    help: 'A test receiver: print each request (method, path, headers, body) and answer 200.',
    options: {
      '--port N': 'The port to listen on (default 9000; 0 picks a free one).',
      '--host ADDRESS': 'The address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for every interface).',
    },
  },
  migrate: { run: lazy(migrations, 'migrate'), usage: 'migrate', help: 'Apply pending database migrations of the kernel and every enabled plugin.' },
  showmigrations: { run: lazy(migrations, 'showmigrations'), usage: 'showmigrations', help: 'List migrations and whether each is applied.' },
  makemigrations: {
    run: lazy(() => import('./makemigrations.js'), 'makemigrations'),
    usage: 'makemigrations <plugin> [name]',
    help: 'Write a migration for the model changes of a plugin.',
    options: { '<plugin>': 'The enabled plugin whose models changed.', '[name]': 'What the migration\'s file is called after its timestamp (default auto).' },
  },
  startplugin: {
    run: lazy(() => import('./startplugin.js'), 'startplugin'),
    usage: 'startplugin <name> [--dir PATH]',
    help: 'Write a new plugin package (a model, its migration, a test on the test kit) outside Patchbay\'s folder.',
    options: {
      '<name>': 'The plugin\'s name: lowercase letters, digits and underscores, starting with a letter.',
      '--dir PATH': 'Where to write it (default patchbay-<name> beside Patchbay\'s folder).',
    },
  },
  'generate-demo': {
    run: lazy(() => import('./demo.js'), 'generateDemo'),
    usage: demoUsage,
    help: 'Insert a realistic demo data set (every plugin\'s part, set-based); a rerun adds only what is missing.',
    options: demoOptions,
  },
  settings: {
    run: lazy(() => import('./settings.js'), 'printSettings'),
    usage: 'settings [--markdown]',
    help: 'Print every setting with its current value and meaning.',
    options: { '--markdown': 'Print the table of settings as Markdown, without their values (docs/configuration.md\'s table of settings).' },
  },
  help: {
    run: async ([name], builtins) => (name ? describe(name, builtins) : (printUsage(process.stdout, builtins), 0)),
    usage: 'help [command]',
    help: 'Show this help, or what a command takes.',
    options: { '[command]': 'The command to describe (as its --help does).' },
  },
};

/** The usage and a table of the commands, their arguments in one column and what they do in the next. */
function printUsage(out: NodeJS.WritableStream, builtins: Plugin[]): void {
  out.write('Usage: npm run -s manage -- <command> [arguments]\n\nCommands:\n');
  const rows = [...Object.values(COMMANDS), ...builtins.flatMap((p) => Object.values(p.commands ?? {}))].map(({ usage, help }) => ({
    usage: resolved(usage, builtins),
    help,
  }));
  const width = Math.max(...rows.map((r) => r.usage.length));
  for (const { usage, help } of rows) out.write(`  ${usage.padEnd(width)}   ${help}\n`);
  out.write('\nEach command answers --help with its options.\n');
}

/** A command's usage, what it does and its options (`<command> --help`, `help <command>`); exit code 2 for no such command. */
function describe(name: string, builtins: Plugin[]): number {
  const command = COMMANDS[name] ?? pluginCommand(name, builtins);
  if (!command) return unknown(name, builtins);
  const options = Object.entries({ ...resolved(command.options ?? {}, builtins), '-h, --help': 'Show this help.' });
  const width = Math.max(...options.map(([option]) => option.length));
  process.stdout.write(`Usage: npm run -s manage -- ${resolved(command.usage, builtins)}\n\n${command.help}\n\nOptions:\n`);
  for (const [option, meaning] of options) process.stdout.write(`  ${option.padEnd(width)}   ${meaning}\n`);
  return 0;
}

function unknown(name: string, builtins: Plugin[]): number {
  process.stderr.write(`Unknown command: ${name}\n\n`);
  printUsage(process.stderr, builtins);
  return 2;
}

/** Commands built-in plugins add (`housekeeping`), run on a server that does not listen. */
function pluginCommand(name: string, builtins: Plugin[]): (Described & { run: Command }) | undefined {
  const owner = builtins.find((p) => p.commands?.[name]);
  const spec = owner?.commands?.[name];
  if (!owner || !spec) return undefined;
  return {
    usage: spec.usage,
    help: spec.help,
    options: spec.options,
    run: async (args) => {
      const input = await spec.input?.(args);
      const { createServer } = await import('../kernel/server.js');
      const server = await createServer({ builtins });
      try {
        return await spec.run(args, server.pluginContext(owner.name), input);
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * Runs a `manage` command; unknown commands print the usage and exit 2, bad settings exit 1. `--help` (or `-h`)
 * describes the command instead of running it; a mistake in the arguments (exit code 2) points to it.
 */
export async function run(argv: string[], builtins: Plugin[]): Promise<number> {
  const [name = 'help', ...args] = argv;
  const command = COMMANDS[name] ?? pluginCommand(name, builtins);
  if (!command) return unknown(name, builtins);
  // Before `--`, where an option ends: `-h` after it is an argument.
  const own = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (own.includes('--help') || own.includes('-h')) return describe(name, builtins);
  try {
    return await command.run(args, builtins);
  } catch (err) {
    if (err instanceof SettingsError) {
      process.stderr.write(`Cannot start: ${err.message}\n`);
      return 1;
    }
    if (err instanceof CommandError) {
      process.stderr.write(`${err.message}\n${err.code === 2 ? `See: npm run -s manage -- ${name} --help\n` : ''}`);
      return err.code;
    }
    throw err;
  }
}
