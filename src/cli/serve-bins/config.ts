import { readFileSync } from 'node:fs';
import { z } from 'zod/v3';
import { binConfigSchema, type BinConfig } from '../../bins/config/config.js';
import { packageFile } from '../../server/package-files.js';
import { hostNamesSchema, portSchema, settingsObject, textSchema } from '../../server/setting-schemas.js';
import { describeJsonError } from '../../shared/json-check.js';
import { storeUrlSchema } from '../../store/store-url.js';
import { CliError, EXIT } from '../common/errors.js';
import {
  fromText,
  layerSettings,
  refuseBoth,
  refuseUnknownVariables,
  validateSettings,
  type FlatSetting,
} from '../start/settings.js';
import type { Source, Sources } from '../../server/settings-check.js';

/** The flags as given to serve-bins: values stay text until loadServeBinsSettings checks them with the environment. */
export type ServeBinsFlags = {
  port?: string;
  host: string;
  data?: string;
  store?: string;
  config?: string;
  allowedHost?: string[];
  quiet?: boolean;
  /** false with --no-generated-key. */
  generatedKey?: boolean;
};

const DEFAULTS_FILE = packageFile('config.default.json');

type JsonObject = { [key: string]: unknown };

/** The client commands' key: starts like the api section's variables but is none of them. */
const CLIENT_VARIABLES = ['SNIPPETKIT_API_KEY'];

/**
 * The bin server's config: config.default.json, then the --config file merged over it, then
 * SNIPPETKIT_<PATH> environment variables for single keys (JS Bin's JSBIN_<PATH>), e.g.
 * SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE=true or SNIPPETKIT_OWNERSHIP_API_KEY=secret.
 * Checked against the schema as a whole: a wrong type or an unknown key is a usage error naming its source.
 */
export function loadBinConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env): BinConfig {
  const defaults = readConfigFile(DEFAULTS_FILE);
  const sources: Sources = new Map();
  let config = defaults;
  if (file) config = mergeDeep(config, readConfigFile(file), { kind: 'file', file }, sources);
  const known = applyEnv(config, defaults, env, sources);
  for (const key of Object.keys(defaults)) refuseUnknownVariables(env, `${envName([key])}_`, known, CLIENT_VARIABLES);
  return validateSettings(binConfigSchema, config, sources);
}

/** The config as serve-bins' and `serve`'s flags give it: --config, then --no-generated-key over everything. */
export function binConfigFromFlags(flags: { config?: string; generatedKey?: boolean }, env: NodeJS.ProcessEnv = process.env): BinConfig {
  const loaded = loadBinConfig(flags.config, env);
  return flags.generatedKey === false ? { ...loaded, ownership: { ...loaded.ownership, generateKey: false } } : loaded;
}

/** The defaults with `overrides` merged over them, checked like a config file (for tests and embedders). */
export function binConfigWith(overrides: JsonObject): BinConfig {
  const sources: Sources = new Map();
  const given: Source = { kind: 'file', file: 'the given config' };
  const config = mergeDeep(readConfigFile(DEFAULTS_FILE), overrides, given, sources);
  return validateSettings(binConfigSchema, config, sources);
}

/** serve-bins' own settings, outside the JS Bin config: where to listen, the store, the Host check. */
const serveSchema = settingsObject({
  port: portSchema,
  /** The SQLite file; undefined = the default one in the user's data folder (unless `store`). */
  data: textSchema.optional(),
  /** A shared store's URL (PostgreSQL, Redis), for several instances. */
  store: storeUrlSchema.optional(),
  allowedHosts: hostNamesSchema,
});

const SERVE_SETTINGS: FlatSetting[] = [
  { key: 'port', flag: '--port', env: 'PORT', fallback: 3000 },
  { key: 'data', flag: '--data', env: 'SNIPPETKIT_BIN_DATA', fallback: undefined },
  { key: 'store', flag: '--store', env: 'SNIPPETKIT_BIN_STORE', fallback: undefined },
  { key: 'allowedHosts', flag: '--allowed-host', env: 'SNIPPETKIT_ALLOWED_HOSTS', fallback: [] },
];

export type ServeBinsSettings = z.output<typeof serveSchema>;

export function loadServeBinsSettings(
  flags: ServeBinsFlags,
  env: NodeJS.ProcessEnv = process.env,
  /** `serve` names the data flags for the bins: --bin-data, --bin-store. */
  names: Partial<Record<string, string>> = {},
): ServeBinsSettings {
  const rows = SERVE_SETTINGS.map((row) => ({ ...row, flag: names[row.key] ?? row.flag }));
  const { value, sources } = layerSettings(rows, { ...flags, allowedHosts: flags.allowedHost }, env);
  const settings = validateSettings(serveSchema, value, sources);
  refuseBoth(settings, sources, 'data', 'store', 'where the bins are');
  return settings;
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
  } catch {
    const where = describeJsonError(text) ?? 'it does not parse';
    throw new CliError(`the config file ${file} is not valid JSON: ${where}`, EXIT.usage);
  }
  if (!isObject(parsed)) throw new CliError(`the config file ${file} must hold a JSON object`, EXIT.usage);
  return parsed;
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

/** Every key the defaults have can be set by its variable (an empty one counts as unset); returns their names. */
function applyEnv(
  config: JsonObject,
  defaults: JsonObject,
  env: NodeJS.ProcessEnv,
  sources: Sources,
  path: string[] = [],
): string[] {
  const names: string[] = [];
  for (const [key, fallback] of Object.entries(defaults)) {
    const keyPath = [...path, key];
    if (isObject(fallback)) {
      // A file that made a section something else is refused by the schema, naming the file.
      const section = isObject(config[key]) ? (config[key] as JsonObject) : {};
      names.push(...applyEnv(section, fallback, env, sources, keyPath));
      continue;
    }
    const name = envName(keyPath);
    names.push(name);
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    config[key] = fromText(raw, fallback);
    sources.set(keyPath.join('.'), { kind: 'env', name, raw });
  }
  return names;
}

function envName(path: string[]): string {
  return `SNIPPETKIT_${path.map((part) => part.toUpperCase().replace(/[^A-Z0-9]+/g, '_')).join('_')}`;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
