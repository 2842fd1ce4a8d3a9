import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrap, type Booted } from '../kernel/boot.js';
import { CommandError, type Plugin } from '../kernel/plugin.js';

function timestamp(): string {
  return new Date().toISOString().replace(/\D/g, '').slice(0, 14);
}

function migrationSource(className: string, up: string[], down: string[]): string {
  const literal = (sql: string) => '`' + sql.replace(/[`\\]/g, (c) => `\\${c}`).replace(/\$\{/g, '\\${') + '`';
  const lines = (sql: string[]) => sql.map((s) => `    this.addSql(${literal(s)});`).join('\n');
  return `import { Migration } from 'patchbay';

export class ${className} extends Migration {
  override async up(): Promise<void> {
${lines(up)}
  }

  override async down(): Promise<void> {
${lines(down)}
  }
}
`;
}

/** The table a generated statement changes (index names start with their table's name). */
function tableOf(sql: string, tables: string[]): string | undefined {
  const named = /(?:create table|alter table|\bon) "([^"]+)"/.exec(sql)?.[1];
  if (named) return named;
  const index = /drop index "([^"]+)"/.exec(sql)?.[1];
  return index ? tables.filter((t) => index.startsWith(`${t}_`)).sort((a, b) => b.length - a.length)[0] : undefined;
}

/**
 * Which plugin's migrations a generated statement belongs to: its table's, unless it is about a column (or a join
 * table) another plugin adds to that table's model and that plugin migrates later (ipam's `primary_ip4` on
 * `dcim_device` needs ipam's tables first). A plugin migrating earlier cannot alter tables that do not exist yet.
 */
function statementOwners(booted: Booted): (sql: string) => string | undefined {
  const order = booted.enabled.map((e) => e.plugin.name);
  const later = (a: string, b: string) => (order.indexOf(a) >= order.indexOf(b) ? a : b);
  const tableOwner = new Map<string, string>();
  const contributed = new Map<string, { column: string; owner: string }[]>();
  for (const { plugin } of booted.enabled) {
    for (const model of plugin.models ?? []) {
      tableOwner.set(model.table, plugin.name);
      for (const field of model.fields) for (const join of field.joinTables()) tableOwner.set(join.table, plugin.name);
    }
  }
  for (const model of booted.registry.all()) {
    const base = tableOwner.get(model.table);
    for (const field of booted.registry.contributedFields(model)) {
      const owner = booted.registry.contributorOf(field);
      if (!owner || !base) continue;
      for (const join of field.joinTables()) tableOwner.set(join.table, later(owner, base));
      const columns = contributed.get(model.table) ?? [];
      columns.push(...field.columns().map((c) => ({ column: c.name, owner: later(owner, base) })));
      contributed.set(model.table, columns);
    }
  }
  const tables = [...tableOwner.keys()];
  return (sql) => {
    const table = tableOf(sql, tables);
    if (!table) return undefined;
    const column = (contributed.get(table) ?? []).find(({ column: c }) => sql.includes(`"${c}"`) || sql.includes(`"${table}_${c}_`));
    return column?.owner ?? tableOwner.get(table);
  };
}

const statements = (sql: string) => sql.split(/;\n/).map((s) => s.trim().replace(/;$/, '')).filter(Boolean).map((s) => `${s};`);

/**
 * Compares the enabled plugins' model declarations with the migrated database and writes the difference
 * as a migration of `<plugin>`.
 */
export async function makemigrations(args: string[], builtins: Plugin[]): Promise<number> {
  const [pluginName, name = 'auto'] = args;
  if (!pluginName) {
    throw new CommandError('Name the plugin whose models changed: makemigrations <plugin> [name]', 2);
  }
  const booted = await bootstrap({ builtins, migrate: true });
  try {
    const plugin = booted.enabled.find((e) => e.plugin.name === pluginName)?.plugin;
    if (!plugin?.migrations) throw new CommandError(`No enabled plugin ${pluginName} with a migrations folder`, 2);
    const diff = await booted.db.orm.getSchemaGenerator().getUpdateSchemaMigrationSQL({ wrap: false, safe: false, dropTables: false });
    // The diff covers every enabled plugin; keep what this plugin owns.
    const owners = statementOwners(booted);
    const mine = (sql: string) => owners(sql) === pluginName;
    const up = statements(diff.up).filter(mine);
    if (!up.length) {
      process.stdout.write('No changes detected.\n');
      return 0;
    }
    const dir = fileURLToPath(plugin.migrations);
    mkdirSync(dir, { recursive: true });
    const slug = name.replace(/[^\w]+/g, '_').toLowerCase();
    const file = join(dir, `${timestamp()}_${slug}.ts`);
    const className = `${pluginName.replace(/(^|_)(\w)/g, (_m, _s, c: string) => c.toUpperCase())}${slug.replace(/(^|_)(\w)/g, (_m, _s, c: string) => c.toUpperCase())}Migration`;
    // The diff never drops tables; the way down from a migration that creates them does.
    const created = up.flatMap((sql) => /^create table "([^"]+)"/.exec(sql)?.[1] ?? []);
    const down = [...statements(diff.down).filter(mine), ...created.reverse().map((t) => `drop table if exists "${t}" cascade;`)];
    writeFileSync(file, migrationSource(className, up, down));
    process.stdout.write(`Wrote ${file}\n`);
    return 0;
  } finally {
    await booted.closeDatabase();
  }
}
