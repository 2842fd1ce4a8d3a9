import { loadSettings } from '../config/load.js';
import { SETTINGS } from '../config/settings.js';

/** Prints each setting's effective value (secrets masked) and meaning. */
export async function printSettings(): Promise<number> {
  const settings = loadSettings();
  for (const [name, spec] of Object.entries(SETTINGS)) {
    const value = settings[name as keyof typeof settings];
    const shown = name === 'SECRET_KEY' && value ? '********' : JSON.stringify(value ?? null);
    process.stdout.write(`${name.padEnd(16)} ${shown.padEnd(24)} ${spec.doc}\n`);
  }
  return 0;
}
