import { InvalidArgumentError, type Command } from 'commander';
import { parseCount, parsePort } from './options.js';

export type ServeMocksFlags = {
  port?: number;
  host: string;
  data?: string;
  maxDelay: number;
  maxBody: number;
  trustProxy?: boolean;
  cors: boolean;
  quiet?: boolean;
};

/** Declares `snippetkit serve-mocks`; the server code is loaded only when it runs. */
export function registerServeMocks(program: Command): void {
  program
    .command('serve-mocks')
    .description('start the mock server: named JSON endpoints with a status code and a delay')
    .option('-p, --port <port>', 'port to listen on (env SNIPPETKIT_MOCK_PORT; default 16540)', parsePort)
    .option('-H, --host <host>', 'address to listen on', '127.0.0.1')
    .option('-d, --data <file>', 'SQLite data file (env SNIPPETKIT_MOCK_DATA; default in your data folder)')
    .option('--max-delay <ms>', 'largest delay an endpoint may have, in milliseconds', parseCount, 60_000)
    .option('--max-body <bytes>', 'largest API request body, in bytes', parsePositive, 1024 * 1024)
    .option('--trust-proxy', 'honour X-Forwarded-For/-Proto/-Host/-Prefix from a reverse proxy')
    .option('--no-cors', 'send no CORS headers and answer no preflights on /endpoint/*')
    .option('-q, --quiet', 'print nothing but errors')
    .addHelpText(
      'after',
      `
Examples:
  $ snippetkit serve-mocks
  $ snippetkit serve-mocks --port 8080 --data ./mocks.sqlite
  $ curl -X PUT localhost:16540/api/endpoint/add -H 'content-type: application/json' \\
      -d '{"name":"users","data":[{"id":1}],"statusCode":200,"delay":250}'
  $ curl localhost:16540/endpoint/users`,
    )
    .action(async (flags: ServeMocksFlags) => {
      const { startMockServer } = await import('./start-mocks.js');
      await startMockServer(flags);
    });
}

function parsePositive(value: string): number {
  const n = parseCount(value);
  if (n === 0) throw new InvalidArgumentError('must be at least 1');
  return n;
}
