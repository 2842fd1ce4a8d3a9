import { settingsMarkdown } from '../kernel/config/doc.js';
import { loadSettings } from '../kernel/config/load.js';
import { SETTINGS } from '../kernel/config/settings.js';
import { withoutPassword } from '../kernel/config/urls.js';

/** Prints each setting's effective value (secrets masked) and meaning; `--markdown` prints docs/configuration.md's table. */
export async function printSettings(args: string[]): Promise<number> {
  if (args.includes('--markdown')) {
    process.stdout.write(settingsMarkdown());
    return 0;
  }
  const settings = loadSettings();
  for (const [name, spec] of Object.entries(SETTINGS)) {
    const value = settings[name as keyof typeof settings];
    const shown = name === 'SECRET_KEY' && value ? '********' : JSON.stringify((name.endsWith('_URL') && typeof value === 'string' ? withoutPassword(value) : value) ?? null);
    process.stdout.write(`${name.padEnd(16)} ${shown.padEnd(24)} ${spec.doc}\n`);
  }
  return 0;
}
