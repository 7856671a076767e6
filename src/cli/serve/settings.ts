import { resolve } from 'node:path';
import { CliError, EXIT } from '../common/errors.js';
import { binConfigFromFlags, loadServeBinsSettings, type ServeBinsSettings } from '../serve-bins/config.js';
import { loadMockSettings, type MockSettings, type ServeMocksFlags } from '../serve-mocks/settings.js';
import { flagSchema, settingsObject } from '../../server/setting-schemas.js';
import { layerSettings, validateSettings, type FlatSetting } from '../start/settings.js';

/** `serve`'s flags as commander gives them: serve-mocks' own ones as they are, the data flags named per app. */
export type ServeFlags = Omit<ServeMocksFlags, 'data' | 'store'> & {
  binData?: string;
  binStore?: string;
  mockData?: string;
  mockStore?: string;
  config?: string;
  /** false with --no-generated-key. */
  generatedKey?: boolean;
  privateMocks?: boolean;
};

export type ServeSettings = {
  port: number;
  /** Both apps' names: one listener, one Host check. */
  allowedHosts: string[];
  bins: ServeBinsSettings;
  binConfig: ReturnType<typeof binConfigFromFlags>;
  mocks: MockSettings;
  /** --private-mocks: the mock side needs what the bins' owner needs (docs/serve.md, "Private mocks"). */
  privateMocks: boolean;
};

/** The one port, as serve-bins has it: the mock server's SNIPPETKIT_MOCK_PORT is serve-mocks' alone. */
const PORT = { flag: '--port', env: 'PORT', fallback: 3000 };

/** serve's own settings, neither app's alone. */
const JOINT_SETTINGS: FlatSetting[] = [{ key: 'privateMocks', flag: '--private-mocks', env: 'SNIPPETKIT_PRIVATE_MOCKS', fallback: false }];
const jointSchema = settingsObject({ privateMocks: flagSchema });

/**
 * Each app's settings by its own loader (same schemas, same messages), with the flags that would be
 * ambiguous renamed: --bin-data/--bin-store and --mock-data/--mock-store. Their variables were never
 * ambiguous (SNIPPETKIT_BIN_DATA, SNIPPETKIT_MOCK_DATA, …) and stay.
 */
export function loadServeSettings(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): ServeSettings {
  const { binData, binStore, mockData, mockStore, privateMocks, ...common } = flags;
  const bins = loadServeBinsSettings(
    { port: flags.port, host: flags.host, data: binData, store: binStore, allowedHost: flags.allowedHost },
    env,
    { data: '--bin-data', store: '--bin-store' },
  );
  const mocks = loadMockSettings({ ...common, data: mockData, store: mockStore }, env, {
    rows: { port: PORT, data: { flag: '--mock-data' }, store: { flag: '--mock-store' } },
    ignored: ['SNIPPETKIT_MOCK_PORT'],
  });
  if (mocks.basePath !== undefined) {
    // On serve every path but /endpoint/ and /mocks/ is the bins': the endpoints cannot have another.
    throw new CliError("SNIPPETKIT_MOCK_BASE_PATH is serve-mocks' alone: on serve the paths outside /endpoint/ and /mocks/ are the bins'", EXIT.usage);
  }
  if (bins.data !== undefined && mocks.data !== undefined && resolve(bins.data) === resolve(mocks.data)) {
    throw new CliError(`the bins and the mocks cannot share one data file (${bins.data}): give --bin-data and --mock-data two`, EXIT.usage);
  }
  const binConfig = binConfigFromFlags(flags, env);
  const allowedHosts = [...new Set([...bins.allowedHosts, ...mocks.allowedHosts])];
  const own = layerSettings(JOINT_SETTINGS, { privateMocks }, env);
  const joint = validateSettings(jointSchema, own.value, own.sources);
  return { port: bins.port, allowedHosts, bins, binConfig, mocks, privateMocks: joint.privateMocks };
}
