import { bootstrap } from '../kernel/boot.js';
import type { Plugin } from '../kernel/plugin.js';

export async function migrate(_args: string[], builtins: Plugin[]): Promise<number> {
  const booted = await bootstrap({ builtins, migrate: true });
  try {
    const { applied } = booted;
    process.stdout.write(applied.length ? applied.map((m) => `Applied ${m}\n`).join('') : 'No migrations to apply.\n');
    return 0;
  } finally {
    await booted.closeDatabase();
  }
}

export async function showmigrations(_args: string[], builtins: Plugin[]): Promise<number> {
  const booted = await bootstrap({ builtins, migrate: false });
  try {
    const pending = new Set(await booted.db.pendingMigrations());
    for (const name of booted.db.migrationNames) process.stdout.write(`[${pending.has(name) ? ' ' : 'X'}] ${name}\n`);
    return 0;
  } finally {
    await booted.closeDatabase();
  }
}
