import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { StructError, create } from 'superstruct';
import { SETTINGS, settingsStruct, type EnvParser, type Settings } from './settings.js';

/**
 * What stops start-up, worded one way: the setting to change, then what is wrong with it (`PORT: 127.0.0.1:8000
 * is already in use; …`). Commands print it on one line and exit 1.
 */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

const DEFAULT_CONFIG_FILE = './patchbay.config.json';

function parseEnv(name: string, raw: string, parser: EnvParser): unknown {
  const text = raw.trim();
  if (parser !== 'string' && (text === '' || text === 'null' || text === 'None')) return null;
  switch (parser) {
    case 'string':
      return raw;
    case 'integer': {
      if (!/^-?\d+$/.test(text)) throw new SettingsError(`${name} (environment): expected an integer, got "${raw}"`);
      return Number(text);
    }
    case 'boolean': {
      if (/^(1|true|yes|on)$/i.test(text)) return true;
      if (/^(0|false|no|off)$/i.test(text)) return false;
      throw new SettingsError(`${name} (environment): expected true or false, got "${raw}"`);
    }
    case 'list':
      return text.startsWith('[') ? parseJson(name, text) : text.split(',').map((s) => s.trim()).filter(Boolean);
    case 'json':
      return parseJson(name, text);
  }
}

function parseJson(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SettingsError(`${name} (environment): invalid JSON: ${(err as Error).message}`);
  }
}

function readConfigFile(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const explicit = env.PATCHBAY_CONFIG;
  if (explicit === '') return {};
  const path = resolve(explicit ?? DEFAULT_CONFIG_FILE);
  if (!existsSync(path)) {
    if (explicit) throw new SettingsError(`PATCHBAY_CONFIG: ${path} does not exist`);
    return {};
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new SettingsError(`PATCHBAY_CONFIG: ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new SettingsError(`PATCHBAY_CONFIG: ${path} must hold a JSON object of settings`);
  }
  return data as Record<string, unknown>;
}

/** Validates raw settings against the schema; the message names the setting and what is wrong with it. */
export function validateSettings(raw: Record<string, unknown>): Settings {
  let settings: Settings;
  try {
    settings = create(raw, settingsStruct);
  } catch (err) {
    if (!(err instanceof StructError)) throw err;
    const failure = err.failures()[0] ?? err;
    const path = failure.path.join('.');
    if (failure.type === 'never') throw new SettingsError(`${path}: unknown setting`);
    throw new SettingsError(`${path}: ${failure.message}`);
  }
  // The headers are part of the request: their time cannot be longer than the whole request's.
  if (settings.HEADERS_TIMEOUT > settings.REQUEST_TIMEOUT) {
    throw new SettingsError(`HEADERS_TIMEOUT: ${settings.HEADERS_TIMEOUT} is longer than REQUEST_TIMEOUT (${settings.REQUEST_TIMEOUT}); make it at most that`);
  }
  return settings;
}

/**
 * Settings come from the config file (PATCHBAY_CONFIG, default ./patchbay.config.json when present; empty: none),
 * then the environment (which wins), then `overrides` (tests and embedders).
 */
export function loadSettings(overrides: Partial<Settings> = {}, env: NodeJS.ProcessEnv = process.env): Settings {
  const raw: Record<string, unknown> = { ...readConfigFile(env) };
  for (const [name, spec] of Object.entries(SETTINGS)) {
    const value = env[name];
    if (value !== undefined) raw[name] = parseEnv(name, value, spec.env);
  }
  return validateSettings({ ...raw, ...overrides });
}

/** MAX_PAGE_SIZE 0 and null both mean "no maximum". */
export function maxPageSize(settings: Settings): number | null {
  return settings.MAX_PAGE_SIZE ? settings.MAX_PAGE_SIZE : null;
}
