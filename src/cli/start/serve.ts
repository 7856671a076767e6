import { checksHost, guardHost } from '../../server/host-check.js';
import { listen, type Handler, type RunningServer } from '../../server/listen.js';
import { DataFileError } from '../../store/data-file.js';
import { CliError, EXIT } from '../common/errors.js';

export type Closable = { close(): Promise<void> };

export type ServeOptions<S extends Closable> = {
  port: number;
  host: string;
  /** Opens the server's store; DataFileErrors become exit code 3 with their message. */
  open(): Promise<S>;
  handler(store: S): Handler;
  /** Host names accepted besides loopback ones (`all`: any); see checksHost. */
  allowedHosts: readonly string[];
  /** The server's JSON error body for a request refused by the Host check. */
  hostRefusal(message: string): object;
  /** The one start-up line, given the URL it listens on. */
  banner?(url: string, store: S): string;
  /**
   * Before the server closes, and when it fails to listen: end what open() and handler() started
   * that would keep connections or the process alive (event streams, workers, file watchers).
   */
  beforeClose?(): void;
  /** Says what shutdown is doing. */
  log?(message: string): void;
};

/**
 * Opens the store, listens, prints the banner, and on SIGINT/SIGTERM stops accepting, lets in-flight
 * requests finish and closes the store. A second signal exits at once.
 */
export async function serveUntilSignal<S extends Closable>(options: ServeOptions<S>): Promise<RunningServer> {
  let store: S;
  try {
    store = await options.open();
  } catch (err) {
    if (err instanceof DataFileError) throw new CliError(err.message, EXIT.dataFile);
    throw err;
  }
  let running: RunningServer;
  try {
    const handler = options.handler(store);
    const guarded = checksHost(options.host, options.allowedHosts)
      ? guardHost(handler, options.allowedHosts, options.hostRefusal)
      : handler;
    running = await listen(guarded, options.port, options.host);
  } catch (err) {
    // Undo what open() and handler() started (file watchers, a --write-db writer, event streams),
    // as shutdown does: left running, a watcher would keep the process alive after the error.
    options.beforeClose?.();
    await store.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      // Most often a server started earlier, in another terminal or by an earlier step of a walkthrough.
      throw new CliError(
        `port ${options.port} on ${options.host} is already in use: stop the server that has it (Ctrl+C where it runs) or pass --port with another one`,
      );
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new CliError(`cannot listen on host ${options.host}: ${code}; pass --host with an address of this machine`);
    }
    throw err;
  }
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(130);
    }
    stopping = true;
    options.log?.(`${signal}: finishing requests in flight and closing the store`);
    options.beforeClose?.();
    await running.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Printed last: whoever waits for this line may signal at once, and the handlers must be there.
  if (options.banner) process.stdout.write(`${options.banner(running.url, store)}\n`);
  return running;
}
