import { readFileSync } from 'node:fs';
import type { BinConfig } from '../bins/config.js';
import { CliError, EXIT } from './errors.js';

const DEFAULTS_URL = new URL('../../config.default.json', import.meta.url);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/**
 * The bin server's config: config.default.json, then the --config file merged over it, then
 * SNIPPETKIT_<PATH> environment variables for single keys (JS Bin's JSBIN_<PATH>), e.g.
 * SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE=true or SNIPPETKIT_OWNERSHIP_API_KEY=secret.
 */
export function loadBinConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env): BinConfig {
  const defaults = JSON.parse(readFileSync(DEFAULTS_URL, 'utf8')) as JsonObject;
  let config = defaults;
  if (file) config = mergeDeep(config, readConfigFile(file));
  applyEnv(config, defaults, env);
  return config as unknown as BinConfig;
}

function readConfigFile(file: string): JsonObject {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read the config file ${file}: ${(err as Error).message}`, EXIT.usage);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new CliError(`the config file ${file} is not valid JSON: ${(err as Error).message}`, EXIT.usage);
  }
  if (!isObject(parsed)) throw new CliError(`the config file ${file} must hold a JSON object`, EXIT.usage);
  return parsed;
}

/** Objects merge key by key; anything else (arrays included) replaces. */
export function mergeDeep(base: JsonObject, over: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? mergeDeep(current, value) : value;
  }
  return out;
}

function applyEnv(config: JsonObject, defaults: JsonObject, env: NodeJS.ProcessEnv, path: string[] = []): void {
  for (const [key, fallback] of Object.entries(defaults)) {
    const keyPath = [...path, key];
    if (isObject(fallback)) {
      if (!isObject(config[key])) config[key] = {};
      applyEnv(config[key] as JsonObject, fallback, env, keyPath);
      continue;
    }
    const name = envName(keyPath);
    const raw = env[name];
    if (raw !== undefined) config[key] = parseEnvValue(name, raw, fallback);
  }
}

function envName(path: string[]): string {
  return `SNIPPETKIT_${path.map((part) => part.toUpperCase().replace(/[^A-Z0-9]+/g, '_')).join('_')}`;
}

function parseEnvValue(name: string, raw: string, fallback: Json): Json {
  if (typeof fallback === 'boolean') {
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
    throw new CliError(`${name}=${raw} must be true or false`, EXIT.usage);
  }
  if (Array.isArray(fallback)) {
    try {
      const value = JSON.parse(raw) as Json;
      if (Array.isArray(value)) return value;
    } catch {
      // fall through to the error
    }
    throw new CliError(`${name} must be a JSON array, e.g. '["<script"]'`, EXIT.usage);
  }
  if (typeof fallback === 'number') {
    const value = Number(raw);
    if (!Number.isFinite(value)) throw new CliError(`${name}=${raw} must be a number`, EXIT.usage);
    return value;
  }
  return raw;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
