import { readFileSync } from 'node:fs';
import { packageFile } from '../../server/package-files.js';
import { checkSettings, type Source, type Sources } from '../../server/settings-check.js';
import { describeJsonError } from '../../shared/json-check.js';
import { binConfigSchema, type BinConfig } from './config.js';

// A config made of layers: config.default.json, then objects merged over it, checked as a whole.
// Whoever starts a bin server uses it: serve-bins (a --config file, then its environment variables)
// and the Node API (an object given in code). Neither reads the environment here.

export type JsonObject = { [key: string]: unknown };

/** A config file that cannot be read, or does not hold a JSON object; the message names the file. */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}

const DEFAULTS_FILE = packageFile('config.default.json');

/** config.default.json as it is: every key a config may set, with its default. */
export function binConfigDefaults(): JsonObject {
  return readConfigFile(DEFAULTS_FILE);
}

export function readConfigFile(file: string): JsonObject {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigFileError(`cannot read the config file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const where = describeJsonError(text) ?? 'it does not parse';
    throw new ConfigFileError(`the config file ${file} is not valid JSON: ${where}`);
  }
  if (!isObject(parsed)) throw new ConfigFileError(`the config file ${file} must hold a JSON object`);
  return parsed;
}

/**
 * The defaults with `overrides` merged over them, checked against the schema: a wrong type or an
 * unknown key is a SettingsError naming the key and `where` (e.g. "api.foo in the given config").
 */
export function binConfigWith(overrides: JsonObject, where = 'the given config'): BinConfig {
  const sources: Sources = new Map();
  const config = mergeDeep(binConfigDefaults(), overrides, { kind: 'file', file: where }, sources);
  return checkSettings(binConfigSchema, config, sources);
}

/** Objects merge key by key; anything else (arrays included) replaces. Each key given is recorded as from `source`. */
export function mergeDeep(
  base: JsonObject,
  over: JsonObject,
  source?: Source,
  sources?: Sources,
  path = '',
): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const keyPath = path ? `${path}.${key}` : key;
    if (source) sources?.set(keyPath, source);
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? mergeDeep(current, value, source, sources, keyPath) : value;
  }
  return out;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
