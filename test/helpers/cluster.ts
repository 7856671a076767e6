import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from './cli.js';
import { INSTANCE_HEADER, startRoundRobinProxy } from './round-robin-proxy.js';
import {
  freshDatabase,
  freshRedisPrefix,
  sharedRedis,
  startPostgres,
  startRedis,
  uniqueName,
  type PostgresServer,
  type RedisServer,
} from './services.js';
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

/** A store engine a cluster shares, as the cluster tests use it. */
export type ClusterEngine = {
  name: string;
  /** A store of the test's own on the run's shared server. */
  shared(): Promise<string>;
  /** A server of the test's own (to stop, or to cut its connections) and its store URL. */
  own(): Promise<{ server: PostgresServer | RedisServer; store: string }>;
  /** Whether the server keeps its data across stop() and start() (the test Redis has no persistence). */
  keepsData: boolean;
};

/** Every engine a cluster can share: the cluster suites run once for each. */
export const CLUSTER_ENGINES: ClusterEngine[] = [
  {
    name: 'PostgreSQL',
    shared: freshDatabase,
    async own() {
      const server = await startPostgres();
      return { server, store: server.url };
    },
    keepsData: true,
  },
  {
    name: 'Redis',
    shared: async () => `${await sharedRedis()}?prefix=${freshRedisPrefix()}`,
    async own() {
      const server = await startRedis();
      return { server, store: `${server.url}?prefix=${uniqueName()}:` };
    },
    keepsData: false,
  },
];

/** An answer, with the instance that gave it (through the proxy) and how long it took. */
export type Answer = { status: number; body: any; instance: string | null; retryAfter: string | null; ms: number };

/**
 * How long one request may take before it counts as a hang. A request in a burst of hundreds waits for
 * those before it: 200 saves at once took up to 0.7 s (new bins) and 1.3 s (one bin) on an idle machine,
 * and over 10 s with every core loaded, so a burst's requests get BURST_MS, 5x the loaded figure.
 */
export const SINGLE_MS = 10_000;
export const BURST_MS = 60_000;

/** A request, timed; it gives up after `timeoutMs` so that a hang fails as such. A JSON body comes parsed. */
export async function call(base: string, path: string, init: RequestInit = {}, timeoutMs = SINGLE_MS): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(base + path, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  const body = res.headers.get('content-type')?.startsWith('application/json') && text ? JSON.parse(text) : text;
  const header = (name: string): string | null => res.headers.get(name);
  return { status: res.status, body, instance: header(INSTANCE_HEADER), retryAfter: header('retry-after'), ms: performance.now() - started };
}

/** What a describe's cluster hooks give its tests. */
export type SuiteCluster = {
  readonly cluster: Cluster;
  /** The cluster's own store server (with `ownServer` only). */
  readonly server: PostgresServer | RedisServer;
};

/**
 * Registers hooks in the calling describe: before its tests, a cluster sharing a store of `engine`,
 * on a server of its own with `ownServer` (for tests that stop it or cut its connections); after
 * them, the cluster stopped and that server removed.
 */
export function clusterPerSuite(
  engine: ClusterEngine,
  { ownServer = false, ...options }: Omit<ClusterOptions, 'store'> & { ownServer?: boolean },
): SuiteCluster {
  let cluster: Cluster | undefined;
  let own: Awaited<ReturnType<ClusterEngine['own']>> | undefined;
  before(async () => {
    if (ownServer) own = await engine.own();
    cluster = await startCluster({ ...options, store: own?.store ?? (await engine.shared()) });
  });
  after(async () => {
    await cluster?.stop();
    await own?.server.remove();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`no ${what}: the describe's before hook has not run, or failed`);
    return value;
  };
  return {
    get cluster() {
      return started(cluster, 'cluster');
    },
    get server() {
      return started(own, 'server of its own').server;
    },
  };
}
