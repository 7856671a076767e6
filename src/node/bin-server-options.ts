import { randomBytes } from 'node:crypto';
import { z } from 'zod/v3';
import { binConfigSchema, type BinConfig } from '../bins/config/config.js';
import { binConfigDefaults, isObject, mergeDeep } from '../bins/config/defaults.js';
import type { Logger } from '../server/logger.js';
import { portSchema, settingsObject, textSchema } from '../server/setting-schemas.js';
import { checkSettings, SettingsError } from '../server/settings-check.js';
import { storeUrlSchema } from '../store/store-url.js';

/** What may be given, at any depth: the rest comes from config.default.json (docs/config.md). */
type Partly<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: Partly<T[K]> } : T;

/** The bin server's config under JS Bin's key names (docs/config.md), any part of it. */
export type BinConfigInput = Partly<z.input<typeof binConfigSchema>>;

export type BinServerOptions = {
  /** 0 (the default): a free port, read back from `port` and `url`. */
  port?: number;
  /** 127.0.0.1 by default; the Host check guards a loopback address as serve-bins does. */
  host?: string;
  /** A SQLite file to keep the bins in; without it (and `store`) they live in a temp file removed by `close()`. */
  data?: string;
  /** A shared store: postgres://… or redis://… (docs/stores.md). */
  store?: string;
  /** Merged over config.default.json, e.g. `{ api: { allowAnonymousRead: false } }` for a private server. */
  config?: BinConfigInput;
  /** The owner key the server's methods send; a random one by default, kept in memory only (read it back as `key`). */
  key?: string;
  /** Where the server says what it does; silent by default, so a test's output stays its own. */
  logger?: Logger;
};

const KEY_SHAPE = /^[\x21-\x7e]+$/;
const LOGGER = 'an object with info, warn and error functions';

// Strict: a misspelt option (`prot: 0`) is refused by name rather than ignored.
const optionsSchema = settingsObject({
  port: portSchema.optional(),
  host: textSchema.min(1, { message: 'a host name or address' }).optional(),
  data: textSchema.min(1, { message: 'a file name' }).optional(),
  store: storeUrlSchema.optional(),
  config: binConfigSchema,
  // Checked below, by a message that does not repeat it: it is a secret.
  key: z.unknown().optional(),
  logger: z
    .custom<Logger>((value) => isObject(value) && ['info', 'warn', 'error'].every((name) => typeof value[name] === 'function'), {
      message: LOGGER,
    })
    .optional(),
});

export type CheckedOptions = { port: number; host: string; data?: string; store?: string; config: BinConfig; key: string; logger?: Logger };

/**
 * The options checked whole, with the config merged over the defaults: a problem is a SettingsError
 * naming the option, e.g. `port is 70000, a number; use a port number from 0 to 65535` or
 * `config.api.foo is not a setting; the keys there are allowAnonymousRead, allowAnonymousReadWrite`.
 */
export function checkBinServerOptions(options: BinServerOptions): CheckedOptions {
  const given: unknown = options.config ?? {};
  // Anything but an object is left for the schema to refuse by name.
  const config = isObject(given) ? mergeDeep(binConfigDefaults(), given) : given;
  const checked = checkSettings(optionsSchema, { ...options, config });
  if (checked.data !== undefined && checked.store !== undefined) {
    throw new SettingsError('data and store both name where the bins are; give one');
  }
  if (isObject(given) && isObject(given.ownership) && given.ownership.api_key !== undefined) {
    // One place for the key, so what the methods send and what the server takes cannot differ.
    throw new SettingsError('config.ownership.api_key is not taken here: give the owner key as the `key` option');
  }
  if (checked.key !== undefined && (typeof checked.key !== 'string' || !KEY_SHAPE.test(checked.key))) {
    throw new SettingsError(
      'key must be a non-empty string of visible ASCII characters, without spaces or line ends, as an Authorization ' +
        'header carries it (what was given is not shown: it is a secret)',
    );
  }
  // Never written anywhere: ownership.generateKey's key file is serve-bins' own.
  const key = checked.key ?? randomBytes(24).toString('base64url');
  return {
    port: checked.port ?? 0,
    host: checked.host ?? '127.0.0.1',
    ...(checked.data !== undefined && { data: checked.data }),
    ...(checked.store !== undefined && { store: checked.store }),
    config: { ...checked.config, ownership: { ...checked.config.ownership, api_key: key, generateKey: false } },
    key,
    ...(checked.logger && { logger: checked.logger }),
  };
}
