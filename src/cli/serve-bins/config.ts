import { z } from 'zod/v3';
import { binConfigSchema, type BinConfig } from '../../bins/config/config.js';
import { binConfigDefaults, ConfigFileError, isObject, mergeDeep, readConfigFile, type JsonObject } from '../../bins/config/defaults.js';
import { hostNamesSchema, portSchema, settingsObject, textSchema } from '../../server/setting-schemas.js';
import type { Sources } from '../../server/settings-check.js';
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

/** The client commands' key: starts like the api section's variables but is none of them. */
const CLIENT_VARIABLES = ['SNIPPETKIT_API_KEY'];

/**
 * The bin server's config: config.default.json, then the --config file merged over it, then
 * SNIPPETKIT_<PATH> environment variables for single keys (JS Bin's JSBIN_<PATH>), e.g.
 * SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE=true or SNIPPETKIT_OWNERSHIP_API_KEY=secret.
 * Checked against the schema as a whole: a wrong type or an unknown key is a usage error naming its source.
 */
export function loadBinConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env): BinConfig {
  const defaults = usageOnFailure(binConfigDefaults);
  const sources: Sources = new Map();
  let config = defaults;
  if (file) config = mergeDeep(config, usageOnFailure(() => readConfigFile(file)), { kind: 'file', file }, sources);
  const known = applyEnv(config, defaults, env, sources);
  for (const key of Object.keys(defaults)) refuseUnknownVariables(env, `${envName([key])}_`, known, CLIENT_VARIABLES);
  return validateSettings(binConfigSchema, config, sources);
}

/** The config as serve-bins' and `serve`'s flags give it: --config, then --no-generated-key over everything. */
export function binConfigFromFlags(flags: { config?: string; generatedKey?: boolean }, env: NodeJS.ProcessEnv = process.env): BinConfig {
  const loaded = loadBinConfig(flags.config, env);
  return flags.generatedKey === false ? { ...loaded, ownership: { ...loaded.ownership, generateKey: false } } : loaded;
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

/** A config file the user must fix is a usage error (exit 2), as a bad flag is. */
function usageOnFailure<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConfigFileError) throw new CliError(err.message, EXIT.usage);
    throw err;
  }
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
