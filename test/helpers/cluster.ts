import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from './cli.js';
import { startRoundRobinProxy } from './round-robin-proxy.js';
import { tempDir } from './temp.js';

export { INSTANCE_HEADER } from './round-robin-proxy.js';

/** One `snippetkit serve-bins` (or `serve-mocks`) process of a cluster. */
export type Instance = {
  /** Its own URL, to ask it directly rather than through the proxy. */
  url: string;
  pid: number;
  /** Sends `signal` (SIGTERM unless given) and resolves once the process has ended. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** What it wrote on stderr so far (for a failure's message). */
  stderr(): string;
};

export type Cluster = {
  /** The round-robin proxy in front of the instances. */
  url: string;
  instances: Instance[];
  /** Kills every instance still running and closes the proxy. */
  stop(): Promise<void>;
};

export type ClusterOptions = {
  count: number;
  /** Which server each instance runs: `serve-bins` unless given. */
  serve?: 'bins' | 'mocks';
  /**
   * The shared store's URL, given as --store. Without it each instance has a SQLite file of its own:
   * only for testing the harness itself (such instances share nothing).
   */
  store?: string;
  /** Environment over the defaults, which allow anonymous writes and set ADMIN_KEY. */
  env?: NodeJS.ProcessEnv;
};

/** The key an admin sends (`Authorization: token ADMIN_KEY`) to delete or list on a cluster. */
export const ADMIN_KEY = 'cluster-admin-key';
export const ADMIN = { Authorization: `token ${ADMIN_KEY}` };

// Instances started and not yet ended: killed if the test run exits without its `after` hooks.
const running = new Set<ServerProcess>();
process.on('exit', () => {
  for (const server of running) server.child.kill('SIGKILL');
});

/**
 * Starts `count` real `snippetkit serve-bins --port 0 --store URL` (or `serve-mocks`) processes and a
 * round-robin proxy in front of them. If one fails to start, those started are killed before this rejects.
 */
export async function startCluster({ count, serve = 'bins', store, env = {} }: ClusterOptions): Promise<Cluster> {
  const temp = store === undefined ? tempDir() : undefined;
  const environment = {
    SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true',
    SNIPPETKIT_OWNERSHIP_API_KEY: ADMIN_KEY,
    ...env,
  };
  const storeArgs = (i: number): string[] => (store === undefined ? ['--data', join(temp!.dir, `${serve}-${i}.sqlite`)] : ['--store', store]);
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      startServerProcess([`serve-${serve}`, '--port', '0', ...storeArgs(i)], environment, { dieWithTests: true }).then(
        (server) => {
          running.add(server);
          server.child.once('exit', () => running.delete(server));
          return server;
        },
      ),
    ),
  );
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    temp?.cleanup();
    throw failure.reason;
  }

  const proxy = await startRoundRobinProxy(servers.map((server) => server.url));
  return {
    url: proxy.url,
    instances: servers.map((server) => ({
      url: server.url,
      pid: server.child.pid!,
      stderr: server.stderr,
      kill: async (signal = 'SIGTERM') => void (await server.stop(signal)),
    })),
    async stop() {
      await Promise.all(servers.map((server) => server.stop('SIGKILL')));
      await proxy.close();
      temp?.cleanup();
    },
  };
}
