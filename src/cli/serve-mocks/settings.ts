import { z } from 'zod/v3';
import { MOCK_DEFAULTS } from '../../mocks/config/defaults.js';
import { checkBasePath } from '../../mocks/config/base-path.js';
import {
  flagSchema,
  hostNamesSchema,
  originListSchema,
  portSchema,
  settingsObject,
  sizeSchema,
  textSchema,
  wholeNumberSchema,
} from '../../server/setting-schemas.js';
import { CliError, EXIT } from '../common/errors.js';
import { proxyTimeoutSchema, proxyUrlSchema } from './proxy-settings.js';
import { storeUrlSchema } from '../../store/store-url.js';
import { checkCallbackHost } from '../../mocks/callbacks/hosts.js';
import { layerSettings, refuseBoth, refuseUnknownVariables, validateSettings, type FlatSetting } from '../start/settings.js';

/** serve-mocks' flags as commander gives them (declared in command.ts): text here, checked below with the environment. */
export type ServeMocksFlags = {
  port?: string;
  host: string;
  data?: string;
  store?: string;
  maxDelay?: string;
  maxBody?: string;
  logSize?: string;
  maxEndpoints?: string;
  maxLogBytes?: string;
  maxStoreBytes?: string;
  maxRequestCpu?: string;
  trustProxy?: boolean;
  cors: boolean;
  corsOrigin?: string[];
  allowedHost?: string[];
  quiet?: boolean;
  dir?: string;
  openapi?: string;
  graphql?: string;
  graphqlPath?: string;
  db?: string;
  writeDb?: boolean;
  proxy?: string;
  proxyTimeout?: string;
  record?: boolean;
  recordCookies?: boolean;
  callbackHost?: string[];
  callbackTimeout?: string;
  validate?: boolean;
  /** A path, or true (the flag alone): the --openapi document's own. */
  basePath?: string | true;
};

export const DEFAULT_MOCK_PORT = 16540;

// Memory and disk grow with endpoints x log size x up to 64 KiB a body: a cap keeps a typo from reserving gigabytes.
const MAX_LOG_SIZE = 10_000;
const LOG_SIZE = `a whole number from 1 to ${MAX_LOG_SIZE}`;
const AT_LEAST_ONE = 'a whole number of at least 1';
const AT_LEAST_A_BYTE = 'a size of at least 1 byte, such as 1MB or 65536';
// A minute: past that one request could hold a worker thread (or, for templates, the server) far too long.
const MAX_REQUEST_CPU = 60_000;
const REQUEST_CPU = `a whole number of milliseconds from 1 to ${MAX_REQUEST_CPU}`;
const CALLBACK_TIMEOUT = 'a whole number of milliseconds of at least 1';

/** Hosts callbacks may go to besides loopback, each `host` or `host:port`. */
const callbackHostsSchema = z.array(
  z.string().superRefine((host, ctx) => {
    const problem = checkCallbackHost(host);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  { message: 'a list of host names such as ["hooks.example.com"]' },
);

/** `--base-path /v1`, or the flag alone (`SNIPPETKIT_MOCK_BASE_PATH=openapi`): the document's. */
const basePathSchema = z.union([z.literal(true), z.string({ message: 'a path such as / or /v1' })]).transform((value, ctx) => {
  if (value === true || value === 'openapi') return true as const;
  const checked = checkBasePath(value);
  if ('problem' in checked) {
    ctx.addIssue({ code: 'custom', message: checked.problem });
    return z.NEVER;
  }
  return checked.path;
});

/** What serve-mocks runs with, from its flags and SNIPPETKIT_MOCK_* variables. */
export const mockSettingsSchema = settingsObject({
  port: portSchema,
  /** The SQLite file; undefined = the default one in the user's data folder (unless `store`). */
  data: textSchema.optional(),
  /** A shared store's URL (PostgreSQL, Redis), for several instances. */
  store: storeUrlSchema.optional(),
  /** A folder of endpoint files to serve and watch. */
  dir: textSchema.optional(),
  /** An OpenAPI document to serve and watch. */
  openapi: textSchema.optional(),
  /** A GraphQL schema (SDL) to serve mocked and watch, at `graphqlPath` under /endpoint/. */
  graphql: textSchema.optional(),
  graphqlPath: textSchema,
  /** A json-server database whose keys are served as collections. */
  db: textSchema.optional(),
  writeDb: flagSchema,
  maxDelay: wholeNumberSchema,
  maxBody: sizeSchema.pipe(z.number().min(1, { message: AT_LEAST_A_BYTE })),
  logSize: z.number({ message: LOG_SIZE }).int({ message: LOG_SIZE }).min(1, { message: LOG_SIZE }).max(MAX_LOG_SIZE, { message: LOG_SIZE }),
  maxEndpoints: z.number({ message: AT_LEAST_ONE }).int({ message: AT_LEAST_ONE }).min(1, { message: AT_LEAST_ONE }),
  maxLogBytes: sizeSchema.pipe(z.number().min(1, { message: AT_LEAST_A_BYTE })),
  maxStoreBytes: sizeSchema.pipe(z.number().min(1, { message: AT_LEAST_A_BYTE })),
  maxRequestCpu: z
    .number({ message: REQUEST_CPU })
    .int({ message: REQUEST_CPU })
    .min(1, { message: REQUEST_CPU })
    .max(MAX_REQUEST_CPU, { message: REQUEST_CPU }),
  cors: flagSchema,
  /** Pages that may use the management API besides the mock page and loopback ones; `*` = any. */
  corsOrigins: originListSchema,
  trustProxy: flagSchema,
  allowedHosts: hostNamesSchema,
  proxy: proxyUrlSchema.optional(),
  proxyTimeout: proxyTimeoutSchema,
  record: flagSchema,
  recordCookies: flagSchema,
  callbackHosts: callbackHostsSchema,
  callbackTimeout: z.number({ message: CALLBACK_TIMEOUT }).int({ message: CALLBACK_TIMEOUT }).min(1, { message: CALLBACK_TIMEOUT }),
  /** Check requests to endpoints that say what they expect (imported OpenAPI operations). */
  validate: flagSchema,
  /** Endpoints answered under this path too; true: the --openapi document's first server's path. */
  basePath: basePathSchema.optional(),
});

export type MockSettings = z.output<typeof mockSettingsSchema>;

const SETTINGS: FlatSetting[] = [
  { key: 'port', flag: '--port', env: 'SNIPPETKIT_MOCK_PORT', fallback: DEFAULT_MOCK_PORT },
  { key: 'data', flag: '--data', env: 'SNIPPETKIT_MOCK_DATA', fallback: undefined },
  { key: 'store', flag: '--store', env: 'SNIPPETKIT_MOCK_STORE', fallback: undefined },
  { key: 'dir', flag: '--dir', env: 'SNIPPETKIT_MOCK_DIR', fallback: undefined },
  { key: 'openapi', flag: '--openapi', env: 'SNIPPETKIT_MOCK_OPENAPI', fallback: undefined },
  { key: 'graphql', flag: '--graphql', env: 'SNIPPETKIT_MOCK_GRAPHQL', fallback: undefined },
  { key: 'graphqlPath', flag: '--graphql-path', env: 'SNIPPETKIT_MOCK_GRAPHQL_PATH', fallback: 'graphql' },
  { key: 'db', flag: '--db', env: 'SNIPPETKIT_MOCK_DB', fallback: undefined },
  { key: 'writeDb', flag: '--write-db', env: 'SNIPPETKIT_MOCK_WRITE_DB', fallback: false },
  { key: 'maxDelay', flag: '--max-delay', env: 'SNIPPETKIT_MOCK_MAX_DELAY', fallback: MOCK_DEFAULTS.maxDelay },
  { key: 'maxBody', flag: '--max-body', env: 'SNIPPETKIT_MOCK_MAX_BODY', fallback: MOCK_DEFAULTS.maxBody },
  { key: 'logSize', flag: '--log-size', env: 'SNIPPETKIT_MOCK_LOG_SIZE', fallback: MOCK_DEFAULTS.logSize },
  {
    key: 'maxEndpoints',
    flag: '--max-endpoints',
    env: 'SNIPPETKIT_MOCK_MAX_ENDPOINTS',
    fallback: MOCK_DEFAULTS.maxEndpoints,
  },
  {
    key: 'maxLogBytes',
    flag: '--max-log-bytes',
    env: 'SNIPPETKIT_MOCK_MAX_LOG_BYTES',
    fallback: MOCK_DEFAULTS.maxLogBytes,
  },
  {
    key: 'maxStoreBytes',
    flag: '--max-store-bytes',
    env: 'SNIPPETKIT_MOCK_MAX_STORE_BYTES',
    fallback: MOCK_DEFAULTS.maxStoreBytes,
  },
  {
    key: 'maxRequestCpu',
    flag: '--max-request-cpu',
    env: 'SNIPPETKIT_MOCK_MAX_REQUEST_CPU',
    fallback: MOCK_DEFAULTS.maxRequestCpu,
  },
  { key: 'cors', flag: '--no-cors', env: 'SNIPPETKIT_MOCK_CORS', fallback: MOCK_DEFAULTS.cors },
  { key: 'corsOrigins', flag: '--cors-origin', env: 'SNIPPETKIT_MOCK_CORS_ORIGIN', fallback: [] },
  { key: 'trustProxy', flag: '--trust-proxy', env: 'SNIPPETKIT_MOCK_TRUST_PROXY', fallback: false },
  { key: 'allowedHosts', flag: '--allowed-host', env: 'SNIPPETKIT_MOCK_ALLOWED_HOSTS', fallback: [] },
  { key: 'proxy', flag: '--proxy', env: 'SNIPPETKIT_MOCK_PROXY', fallback: undefined },
  {
    key: 'proxyTimeout',
    flag: '--proxy-timeout',
    env: 'SNIPPETKIT_MOCK_PROXY_TIMEOUT',
    fallback: MOCK_DEFAULTS.proxyTimeout,
  },
  { key: 'record', flag: '--record', env: 'SNIPPETKIT_MOCK_RECORD', fallback: false },
  { key: 'recordCookies', flag: '--record-cookies', env: 'SNIPPETKIT_MOCK_RECORD_COOKIES', fallback: false },
  { key: 'callbackHosts', flag: '--callback-host', env: 'SNIPPETKIT_MOCK_CALLBACK_HOST', fallback: [] },
  {
    key: 'callbackTimeout',
    flag: '--callback-timeout',
    env: 'SNIPPETKIT_MOCK_CALLBACK_TIMEOUT',
    fallback: MOCK_DEFAULTS.callbackTimeout,
  },
  { key: 'validate', flag: '--validate', env: 'SNIPPETKIT_MOCK_VALIDATE', fallback: false },
  { key: 'basePath', flag: '--base-path', env: 'SNIPPETKIT_MOCK_BASE_PATH', fallback: undefined },
];

/** serve-mocks' settings, checked; a bad value is a usage error naming it and where it came from. */
export function loadMockSettings(
  flags: ServeMocksFlags,
  env: NodeJS.ProcessEnv = process.env,
  /** `serve`'s one listener: its port (--port, PORT, 3000) and the mocks' data flags named --mock-data, --mock-store. */
  joint?: { rows: Partial<Record<string, Partial<FlatSetting>>>; ignored: string[] },
): MockSettings {
  // commander sets cors to true unless --no-cors is given: only false came from the command line.
  const cors = flags.cors === false ? false : undefined;
  const given = { ...flags, allowedHosts: flags.allowedHost, cors, corsOrigins: flags.corsOrigin, callbackHosts: flags.callbackHost };
  const rows = SETTINGS.map((row) => ({ ...row, ...joint?.rows[row.key] }));
  // SNIPPETKIT_MOCK_SERVER is the client commands' server URL, read by them alone.
  const known = rows.map((setting) => setting.env);
  refuseUnknownVariables(env, 'SNIPPETKIT_MOCK_', known, ['SNIPPETKIT_MOCK_SERVER', ...(joint?.ignored ?? [])]);
  const { value, sources } = layerSettings(rows, given, env);
  const settings = validateSettings(mockSettingsSchema, value, sources);
  refuseBoth(settings, sources, 'data', 'store', 'where the mocks are');
  if (settings.basePath === true && settings.openapi === undefined) {
    throw new CliError("--base-path alone serves at the path of the --openapi document's first server: give --openapi, or a path such as /", EXIT.usage);
  }
  if (!settings.cors && settings.corsOrigins.length > 0) {
    const named = (key: string, flag: string) => {
      const source = sources.get(key);
      return source?.kind === 'env' ? source.name : flag;
    };
    const message = `${named('corsOrigins', '--cors-origin')} lets pages in that ${named('cors', '--no-cors')} keeps out; give one`;
    throw new CliError(message, EXIT.usage);
  }
  return settings;
}
