import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrap } from '../boot.js';
import type { Plugin } from '../plugin.js';

function timestamp(): string {
  return new Date().toISOString().replace(/\D/g, '').slice(0, 14);
}

function migrationSource(className: string, up: string[], down: string[]): string {
  const literal = (sql: string) => '`' + sql.replace(/[`\\]/g, (c) => `\\${c}`).replace(/\$\{/g, '\\${') + '`';
  const lines = (sql: string[]) => sql.map((s) => `    this.addSql(${literal(s)});`).join('\n');
  return `import { Migration } from '@mikro-orm/migrations';

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

const statements = (sql: string) => sql.split(/;\n/).map((s) => s.trim().replace(/;$/, '')).filter(Boolean).map((s) => `${s};`);

/**
 * Compares the enabled plugins' model declarations with the migrated database and writes the difference
 * as a migration of `<plugin>`.
 */
export async function makemigrations(args: string[], builtins: Plugin[]): Promise<number> {
  const [pluginName, name = 'auto'] = args;
  if (!pluginName) {
    process.stderr.write('Usage: manage makemigrations <plugin> [name]\n');
    return 2;
  }
  const booted = await bootstrap({ builtins, migrate: true });
  try {
    const plugin = booted.enabled.find((e) => e.plugin.name === pluginName)?.plugin;
    if (!plugin?.migrations) {
      process.stderr.write(`No enabled plugin ${pluginName} with a migrations folder\n`);
      return 2;
    }
    const diff = await booted.db.orm.getSchemaGenerator().getUpdateSchemaMigrationSQL({ wrap: false, safe: false, dropTables: false });
    // The diff covers every enabled plugin; keep what concerns this plugin's own tables.
    const tables = (plugin.models ?? []).flatMap((m) => [
      m.table,
      ...m.fields.flatMap((f) => f.joinTables().map((j) => j.table)),
    ]);
    const mine = (sql: string) => tables.includes(tableOf(sql, tables) ?? '');
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
