import { existsSync, readdirSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migration } from '@mikro-orm/migrations';

type MigrationClass = new (...args: ConstructorParameters<typeof Migration>) => Migration;

/** One migration of one plugin, named `<plugin>/<file>` in the migrations table. */
export interface MigrationSource {
  name: string;
  migration: MigrationClass;
}

const MIGRATION_FILE = /^\d{14}_[\w-]+\.(ts|js|mjs)$/;

/** Loads the migration classes of a folder (none before `makemigrations` writes it), ordered by their timestamped file names. */
export async function loadMigrations(owner: string, dir: URL): Promise<MigrationSource[]> {
  const path = fileURLToPath(dir);
  if (!existsSync(path)) return [];
  const files = readdirSync(path).filter((f) => MIGRATION_FILE.test(f) && !f.endsWith('.d.ts')).sort();
  const sources: MigrationSource[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(`${path}/${file}`).href)) as Record<string, unknown>;
    const migration = Object.values(mod).find(
      (v): v is MigrationClass => typeof v === 'function' && v.prototype instanceof Migration,
    );
    if (!migration) throw new Error(`${owner}: ${file} exports no Migration class`);
    sources.push({ name: `${owner}/${basename(file, extname(file))}`, migration });
  }
  return sources;
}
