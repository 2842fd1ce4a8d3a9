import { SettingsError } from '../kernel/config/load.js';
import { CommandError, type Plugin } from '../kernel/plugin.js';
import { demoUsage } from './demo-sizes.js';

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

/** A command's usage line: fixed, or built from the enabled plugins (the demo sizes they take). */
type Usage = string | ((builtins: Plugin[]) => string);

const COMMANDS: Record<string, { run: Command; usage: Usage; help: string }> = {
  runserver: { run: lazy(() => import('./runserver.js'), 'runserver'), usage: 'runserver', help: 'Start the HTTP server (what `npm start` runs); migrates first.' },
  worker: {
    run: lazy(() => import('./worker.js'), 'worker'),
    usage: 'worker',
    help: 'Run background jobs (webhook deliveries) from the Redis queue; start several, on several machines.',
  },
  webhook_receiver: {
    run: lazy(() => import('./webhook-receiver.js'), 'webhookReceiver'),
    usage: 'webhook_receiver [--port 9000]',
    help: 'A test receiver: print each request (method, path, headers, body) and answer 200.',
  },
  migrate: { run: lazy(migrations, 'migrate'), usage: 'migrate', help: 'Apply pending database migrations of the kernel and every enabled plugin.' },
  showmigrations: { run: lazy(migrations, 'showmigrations'), usage: 'showmigrations', help: 'List migrations and whether each is applied.' },
  makemigrations: { run: lazy(() => import('./makemigrations.js'), 'makemigrations'), usage: 'makemigrations <plugin> [name]', help: 'Write a migration for the model changes of a plugin.' },
  startplugin: {
    run: lazy(() => import('./startplugin.js'), 'startplugin'),
    usage: 'startplugin <name> [--dir PATH]',
    help: 'Write a new plugin package (a model, its migration, a test on the test kit) outside Patchbay\'s folder.',
  },
  'generate-demo': {
    run: lazy(() => import('./demo.js'), 'generateDemo'),
    usage: demoUsage,
    help: 'Insert a realistic demo data set (every plugin\'s part, set-based); a rerun adds only what is missing.',
  },
  settings: { run: lazy(() => import('./settings.js'), 'printSettings'), usage: 'settings [--markdown]', help: 'Print every setting with its current value and meaning.' },
  help: { run: async (_args, builtins) => (printUsage(process.stdout, builtins), 0), usage: 'help', help: 'Show this help.' },
};

/** The usage and a table of the commands, their arguments in one column and what they do in the next. */
function printUsage(out: NodeJS.WritableStream, builtins: Plugin[]): void {
  out.write('Usage: npm run -s manage -- <command> [arguments]\n\nCommands:\n');
  const rows = [...Object.values(COMMANDS), ...builtins.flatMap((p) => Object.values(p.commands ?? {}))].map(({ usage, help }) => ({
    usage: typeof usage === 'string' ? usage : usage(builtins),
    help,
  }));
  const width = Math.max(...rows.map((r) => r.usage.length));
  for (const { usage, help } of rows) out.write(`  ${usage.padEnd(width)}   ${help}\n`);
}

/** Commands built-in plugins add (`housekeeping`), run on a server that does not listen. */
function pluginCommand(name: string, builtins: Plugin[]): { run: Command; usage: Usage; help: string } | undefined {
  const owner = builtins.find((p) => p.commands?.[name]);
  const spec = owner?.commands?.[name];
  if (!owner || !spec) return undefined;
  return {
    usage: spec.usage,
    help: spec.help,
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

/** Runs a `manage` command; unknown commands print the usage and exit 2, bad settings exit 1. */
export async function run(argv: string[], builtins: Plugin[]): Promise<number> {
  const [name = 'help', ...args] = argv;
  const command = COMMANDS[name] ?? pluginCommand(name, builtins);
  if (!command) {
    process.stderr.write(`Unknown command: ${name}\n\n`);
    printUsage(process.stderr, builtins);
    return 2;
  }
  try {
    return await command.run(args, builtins);
  } catch (err) {
    if (err instanceof SettingsError) {
      process.stderr.write(`Cannot start: ${err.message}\n`);
      return 1;
    }
    if (err instanceof CommandError) {
      process.stderr.write(`${err.message}\n`);
      return err.code;
    }
    throw err;
  }
}
