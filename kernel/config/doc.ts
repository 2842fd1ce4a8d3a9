import { loadSettings } from './load.js';
import { SETTINGS } from './settings.js';

/** The settings table of docs/configuration.md, generated from the settings schema so that the two cannot drift. */
export function settingsMarkdown(): string {
  const defaults = loadSettings({}, { PATCHBAY_CONFIG: '' });
  const rows = Object.entries(SETTINGS).map(([name, spec]) => {
    const value = defaults[name as keyof typeof defaults];
    return `| \`${name}\` | ${value === undefined ? 'unset' : `\`${JSON.stringify(value)}\``} | ${spec.doc} |`;
  });
  return ['| Setting | Default | Meaning |', '|---|---|---|', ...rows].join('\n') + '\n';
}
