import { createClient } from '@redis/client';
import { freePort, serverFolder, startServerProcess, type ServerProcess } from './server-process.js';

/** A throwaway Redis of one test run: its own port and working folder. */
export type RedisServer = {
  /** redis://127.0.0.1:PORT */
  url: string;
  port: number;
  /** Shuts it down. Persistence is off: a Redis started again after stop() is EMPTY. */
  stop(): Promise<void>;
  /** Starts it again after stop(), on the same port: the same URL, no data. */
  start(): Promise<void>;
  /** Ends every client connection but the helper's own, subscribers included (CLIENT KILL). */
  disconnectClients(): Promise<number>;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
};

export async function spawnRedis(): Promise<RedisServer> {
  const folder = serverFolder('snippetkit-redis-');
  const dir = folder.dir;
  const port = await freePort();
  const launch = (): Promise<ServerProcess> =>
    startServerProcess({
      command: 'redis-server',
      // No snapshots, no append-only file: nothing written, nothing to wait for. Log to stdout.
      args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--logfile', ''],
      ready: /Ready to accept connections/,
      dieSignal: 'SIGTERM',
    });
  let server: ServerProcess | undefined = await launch();
  const url = `redis://127.0.0.1:${port}`;

  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    await server?.stop(signal);
    server = undefined;
  };
  return {
    url,
    port,
    stop: () => stop(),
    async start() {
      if (server) throw new Error('this Redis is running already');
      server = await launch();
    },
    async disconnectClients() {
      const client = createClient({ url });
      await client.connect();
      try {
        let ended = 0;
        for (const type of ['normal', 'pubsub']) {
          ended += Number(await client.sendCommand(['CLIENT', 'KILL', 'TYPE', type, 'SKIPME', 'yes']));
        }
        return ended;
      } finally {
        client.destroy();
      }
    },
    async remove() {
      // Nothing it holds is kept, so there is nothing to shut down cleanly for.
      await stop('SIGKILL');
      folder.remove();
    },
  };
}
