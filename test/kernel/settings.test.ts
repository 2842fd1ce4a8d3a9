import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsError, loadSettings } from '../../kernel/config/load.js';

const file = (content: unknown) => {
  const path = join(mkdtempSync(join(tmpdir(), 'patchbay-config-')), 'config.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

describe('settings', () => {
  it('has the documented defaults', () => {
    expect(loadSettings({}, { PATCHBAY_CONFIG: '' })).toMatchObject({
      PORT: 8000, PAGINATE_COUNT: 50, MAX_PAGE_SIZE: 1000, PLUGINS: [], PLUGINS_CONFIG: {}, DATA_DIR: './data',
    });
  });

  it('reads the config file, and the environment wins over it', () => {
    const path = file({ PORT: 9001, PAGINATE_COUNT: 25, PLUGINS: ['./a.ts'] });
    const settings = loadSettings({}, { PATCHBAY_CONFIG: path, PAGINATE_COUNT: '10', MAX_PAGE_SIZE: 'null', PLUGINS: 'x, y' });
    expect(settings).toMatchObject({ PORT: 9001, PAGINATE_COUNT: 10, MAX_PAGE_SIZE: null, PLUGINS: ['x', 'y'] });
    expect(loadSettings({}, { PATCHBAY_CONFIG: '', PLUGINS_CONFIG: '{"a": {"b": 1}}', MAX_PAGE_SIZE: '0' })).toMatchObject({
      PLUGINS_CONFIG: { a: { b: 1 } },
      MAX_PAGE_SIZE: 0,
    });
  });

  it('refuses ill-typed and unknown settings with a message naming them', () => {
    const fails = (env: Record<string, string>, message: RegExp) => {
      expect(() => loadSettings({}, env)).toThrow(SettingsError);
      expect(() => loadSettings({}, env)).toThrow(message);
    };
    fails({ PATCHBAY_CONFIG: '', PORT: 'eighty' }, /^PORT \(environment\): expected an integer, got "eighty"$/);
    fails({ PATCHBAY_CONFIG: file({ PORT: 'x' }) }, /^PORT: Expected an integer/);
    fails({ PATCHBAY_CONFIG: file({ PAGE_COUNT: 5 }) }, /^PAGE_COUNT: unknown setting$/);
    fails({ PATCHBAY_CONFIG: file({ MAX_PAGE_SIZE: -1 }) }, /^MAX_PAGE_SIZE: Expected a integer greater than or equal to 0/);
    fails({ PATCHBAY_CONFIG: file({ PLUGINS_CONFIG: { x: 3 } }) }, /^PLUGINS_CONFIG\.x: Expected an object/);
    fails({ PATCHBAY_CONFIG: '', PLUGINS_CONFIG: '{nope' }, /^PLUGINS_CONFIG \(environment\): invalid JSON/);
    fails({ PATCHBAY_CONFIG: file('[1]') }, /must hold a JSON object of settings$/);
    fails({ PATCHBAY_CONFIG: '/nonexistent/patchbay.json' }, /^PATCHBAY_CONFIG: \/nonexistent\/patchbay.json does not exist$/);
    // As Django 4+: a trusted origin names its scheme.
    fails({ PATCHBAY_CONFIG: '', CSRF_TRUSTED_ORIGINS: 'https://ok.example, netbox.example.com' }, /^CSRF_TRUSTED_ORIGINS\.1: must be an origin with its scheme .*got "netbox.example.com"$/);
  });

  it('reads CSRF_TRUSTED_ORIGINS as a list of origins, wildcards included', () => {
    expect(loadSettings({}, { PATCHBAY_CONFIG: '' }).CSRF_TRUSTED_ORIGINS).toEqual([]);
    expect(loadSettings({}, { PATCHBAY_CONFIG: '', CSRF_TRUSTED_ORIGINS: 'https://netbox.example.com, https://*.example.com:8443' }).CSRF_TRUSTED_ORIGINS)
      .toEqual(['https://netbox.example.com', 'https://*.example.com:8443']);
  });
});
