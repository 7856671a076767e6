import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, serverFolder, startServerProcess, type ServerProcess } from './server-process.js';

const run = promisify(execFile);

/** A throwaway PostgreSQL of one test run: its own data folder and port. */
export type PostgresServer = {
  /** postgres://postgres@127.0.0.1:PORT/postgres (superuser, no password). */
  url: string;
  port: number;
  /** Shuts it down (fast shutdown: clients are disconnected); its data folder stays for start(). */
  stop(): Promise<void>;
  /** Starts it again after stop(), on the same port and data folder: the same URL, the same data. */
  start(): Promise<void>;
  /** Ends every client connection but the helper's own (all databases, or one), as an admin would. */
  disconnectClients(database?: string): Promise<number>;
  /** Stops it and removes its data folder. */
  remove(): Promise<void>;
};

/** Debian keeps initdb and postgres off the PATH, in /usr/lib/postgresql/<major>/bin (newest wins). */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin/initdb'))) : [];
  majors.sort((a, b) => Number(b) - Number(a));
  return majors.length > 0 ? join(root, majors[0], 'bin') : '';
}

const BIN_DIR = binDir();
const bin = (name: string): string => (BIN_DIR ? join(BIN_DIR, name) : name);

// initdb and postgres refuse to run as root: as root (CI), they run as the `postgres` user that
// Debian's package creates, in a folder it owns.
const asUser = process.getuid?.() === 0 ? 'postgres' : undefined;

function giveToUser(dir: string, user: string): void {
  const id = (flag: string): number => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }));
  chownSync(dir, id('-u'), id('-g'));
}

// Durability is worth nothing to a test: no fsync, no full-page writes. TCP on 127.0.0.1 only (no
// socket file in /var/run/postgresql, which a non-root user may not write), English log lines
// (readiness is read from them), small memory for a 2-core machine that runs several at once.
const SETTINGS = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  shared_buffers: '32MB',
  max_connections: '200',
  autovacuum: 'off',
  lc_messages: 'C',
};

export async function spawnPostgres(): Promise<PostgresServer> {
  const folder = serverFolder('snippetkit-pg-');
  const dir = folder.dir;
  if (asUser) giveToUser(dir, asUser);
  const identity = asUser ? ['setpriv', `--reuid=${asUser}`, `--regid=${asUser}`, '--init-groups', '--'] : [];
  const initdb = [bin('initdb'), '-D', dir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'];
  const [command, ...args] = [...identity, ...initdb];
  await run(command, args).catch((error: Error) => {
    throw new Error(`initdb failed (as root, npm test installs Debian's postgresql): ${error.message}`);
  });

  const port = await freePort();
  const settings = Object.entries(SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const launch = (): Promise<ServerProcess> =>
    startServerProcess({
      command: bin('postgres'),
      args: ['-D', dir, '-p', String(port), ...settings],
      ready: /database system is ready to accept connections/,
      dieSignal: 'SIGQUIT', // immediate shutdown when this process dies
      user: asUser,
    });
  let server: ServerProcess | undefined = await launch();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  const stop = async (signal: NodeJS.Signals = 'SIGINT'): Promise<void> => {
    await server?.stop(signal); // SIGINT: fast shutdown
    server = undefined;
  };
  return {
    url,
    port,
    stop: () => stop(),
    async start() {
      if (server) throw new Error('this PostgreSQL is running already');
      server = await launch();
    },
    async disconnectClients(database) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ ended: number }>(
          `SELECT count(pg_terminate_backend(pid))::int AS ended FROM pg_stat_activity
           WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND ($1::text IS NULL OR datname = $1)`,
          [database ?? null],
        );
        return rows[0].ended;
      } finally {
        await client.end();
      }
    },
    async remove() {
      // Immediate shutdown: its data is thrown away, so nothing is gained by the fast shutdown's
      // checkpoint, and a backend a test left blocked held a fast shutdown for 11 s (the run's end).
      await stop('SIGQUIT');
      folder.remove();
    },
  };
}
