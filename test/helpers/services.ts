import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import pg from 'pg';
import { perTest } from './per-test.js';
import { spawnPostgres, type PostgresServer } from './postgres-server.js';
import { spawnRedis, type RedisServer } from './redis-server.js';

export type { PostgresServer, RedisServer };

/**
 * The servers the store tests share. SNIPPETKIT_TEST_POSTGRES / SNIPPETKIT_TEST_REDIS name running
 * servers (URLs) to use; otherwise the first test that asks starts a throwaway one for the whole
 * run (Debian's packages, which `npm test` installs when missing: scripts/ensure-test-deps.sh).
 * A test that stops a server or kills its connections starts its own with startPostgres() /
 * startRedis() instead: the shared ones are not its to disturb (and external ones cannot be).
 */
const EXTERNAL_POSTGRES = process.env.SNIPPETKIT_TEST_POSTGRES || undefined;
const EXTERNAL_REDIS = process.env.SNIPPETKIT_TEST_REDIS || undefined;

let sharedPostgresServer: Promise<PostgresServer> | undefined;
let sharedRedisServer: Promise<RedisServer> | undefined;
const started = new Set<PostgresServer | RedisServer>();

/** A throwaway PostgreSQL of the caller's own; removed after the run if the test does not remove it. */
export async function startPostgres(): Promise<PostgresServer> {
  const server = await spawnPostgres();
  started.add(server);
  return server;
}

/** A throwaway Redis of the caller's own; removed after the run if the test does not remove it. */
export async function startRedis(): Promise<RedisServer> {
  const server = await spawnRedis();
  started.add(server);
  return server;
}

/**
 * Registers hooks in the calling describe: before each test, a server of the test's own (`start` is
 * startPostgres or startRedis); after it, what the test opened on it (`openOn` its URL) closed, then
 * the server removed.
 */
export function ownServerPerTest<Server extends PostgresServer | RedisServer, Opened extends { close(): Promise<void> }>(
  start: () => Promise<Server>,
  openOn: (url: string) => Promise<Opened>,
): { readonly server: Server; open(): Promise<Opened> } {
  const each = perTest(start, (server) => openOn(server.url));
  return {
    get server() {
      return each.current();
    },
    open: each.open,
  };
}

/** The URL of the run's PostgreSQL server (superuser). */
export async function sharedPostgres(): Promise<string> {
  if (EXTERNAL_POSTGRES) return EXTERNAL_POSTGRES;
  sharedPostgresServer ??= startPostgres();
  return (await sharedPostgresServer).url;
}

/** The URL of the run's Redis server. */
export async function sharedRedis(): Promise<string> {
  if (EXTERNAL_REDIS) return EXTERNAL_REDIS;
  sharedRedisServer ??= startRedis();
  return (await sharedRedisServer).url;
}

/** A name no other test uses: for a database, a key prefix, a channel. */
export function uniqueName(): string {
  return `test_${randomBytes(6).toString('hex')}`;
}

const databases: string[] = [];
const prefixes: string[] = [];

/** A new empty database on the shared PostgreSQL, dropped after the run; resolves to its URL. */
export async function freshDatabase(): Promise<string> {
  const name = uniqueName();
  const client = new pg.Client({ connectionString: await sharedPostgres() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  databases.push(name);
  const url = new URL(await sharedPostgres());
  url.pathname = `/${name}`;
  return url.href;
}

/** A key prefix of its own on the shared Redis ("test_…:"); its keys are deleted after the run. */
export function freshRedisPrefix(): string {
  const prefix = `${uniqueName()}:`;
  prefixes.push(prefix);
  return prefix;
}

// What a run leaves on servers it does not own (on its own, the folders go with the servers).
async function cleanExternal(): Promise<void> {
  if (EXTERNAL_POSTGRES && databases.length > 0) {
    const client = new pg.Client({ connectionString: EXTERNAL_POSTGRES });
    await client.connect();
    for (const name of databases) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  }
  if (EXTERNAL_REDIS && prefixes.length > 0) {
    const client = createClient({ url: EXTERNAL_REDIS });
    await client.connect();
    for (const prefix of prefixes) {
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
        if (keys.length > 0) await client.unlink(keys);
      }
    }
    client.destroy();
  }
}

// A root hook (this module loads once, from the first test file that imports it): the servers
// stop after the run, passed or failed. server-process.ts stops them on a crash or a signal.
after(async function () {
  this.timeout(60_000);
  await cleanExternal();
  await Promise.all([...started].map((server) => server.remove()));
});
