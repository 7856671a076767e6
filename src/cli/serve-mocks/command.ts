import { Option, type Command } from 'commander';
import { allowedHostOption } from '../common/options.js';
import type { ServeMocksFlags } from './settings.js';

/** Declares `snippetkit serve-mocks`; the server code is loaded only when it runs. */
export function registerServeMocks(program: Command): void {
  const command = program
    .command('serve-mocks')
    .description('start the mock server: JSON endpoints with paths, methods, conditional answers, delays and faults')
    .option('-p, --port <port>', 'port to listen on (env SNIPPETKIT_MOCK_PORT; default 16540)')
    .option('-H, --host <host>', 'address to listen on', '127.0.0.1')
    .option('-d, --data <file>', 'SQLite data file (env SNIPPETKIT_MOCK_DATA; default in your data folder)')
    .option(
      '--store <url>',
      'shared store for several instances: postgres://user@host/db or redis://host:6379[?prefix=name:] (env SNIPPETKIT_MOCK_STORE)',
    );
  addMockOptions(command)
    .option(
      '--base-path [path]',
      "answer endpoints at <path>/<their path> too (/: an OpenAPI document's operations at their own paths, as Prism); alone: the --openapi document's server path (env SNIPPETKIT_MOCK_BASE_PATH; 'openapi' for alone)",
    )
    .addOption(allowedHostOption('SNIPPETKIT_MOCK_ALLOWED_HOSTS'));
  addMockProxyOptions(command)
    .option('-q, --quiet', 'print nothing but errors')
    .addHelpText(
      'after',
      `
Examples:
  $ snippetkit serve-mocks
  $ snippetkit serve-mocks --port 8080 --data ./mocks.sqlite
  $ snippetkit serve-mocks --store redis://cache.internal:6379
  $ snippetkit serve-mocks --host 0.0.0.0 --allowed-host mocks.example
  $ snippetkit serve-mocks --cors-origin https://app.example   # that page may manage endpoints too
  $ snippetkit serve-mocks --max-store-bytes 64mb --max-log-bytes 32mb   # memory budgets for a small machine
  $ snippetkit serve-mocks --dir mocks/     # mocks/users/list.yaml answers /endpoint/users/list
  $ snippetkit serve-mocks --openapi api.yaml   # an endpoint per operation; ?__code=404 picks another status
  $ snippetkit serve-mocks --graphql schema.graphql   # mocked GraphQL at /endpoint/graphql
  $ snippetkit serve-mocks --db db.json   # json-server routes: /endpoint/posts?_sort=id&_order=desc
  $ snippetkit serve-mocks --db db.json --write-db   # changes also go back into db.json
  $ snippetkit serve-mocks --max-request-cpu 1000   # allow heavier templates and _like queries
  $ snippetkit serve-mocks --callback-host hooks.example.com   # endpoints' callbacks may go there, besides localhost
  $ curl -X PUT localhost:16540/api/endpoint/add -H 'content-type: application/json' \\
      -d '{"name":"users","data":[{"id":1}],"statusCode":200,"delay":250}'
  $ curl localhost:16540/endpoint/users
  $ snippetkit serve-mocks --proxy https://api.example.com --record   # record a real API, then replay it offline
  $ snippetkit serve-mocks --proxy http://localhost:3000/v1 --proxy-timeout 5000`,
    )
    .action(async (flags: ServeMocksFlags) => {
      // The flags are checked before the server is loaded: a mistake is answered in a blink.
      const { loadMockSettings } = await import('./settings.js');
      const settings = loadMockSettings(flags);
      const { startMockServer } = await import('./start.js');
      await startMockServer(flags, settings);
    });
}

/**
 * The mock server's own flags (sources, limits, CORS), declared once for serve-mocks and `serve`,
 * where they keep their names: no other server has them.
 */
export function addMockOptions(command: Command): Command {
  return command
    .option(
      '--dir <folder>',
      'serve the *.json, *.yaml, *.yml endpoint files under this folder, live (env SNIPPETKIT_MOCK_DIR)',
    )
    .option(
      '--openapi <file>',
      'serve an endpoint per operation of this OpenAPI 3.x / Swagger 2.0 document, live (env SNIPPETKIT_MOCK_OPENAPI)',
    )
    .option(
      '--graphql <file>',
      'serve this GraphQL schema (SDL) mocked at /endpoint/graphql, live (env SNIPPETKIT_MOCK_GRAPHQL)',
    )
    .option('--graphql-path <path>', 'where --graphql is served under /endpoint/ (env SNIPPETKIT_MOCK_GRAPHQL_PATH; default graphql)')
    .option('--db <file>', 'serve each key of this json-server db.json as a collection (env SNIPPETKIT_MOCK_DB)')
    .option('--write-db', 'write --db collections\' changes back to the file (env SNIPPETKIT_MOCK_WRITE_DB)')
    .option('--max-delay <ms>', 'largest delay an endpoint may have (env SNIPPETKIT_MOCK_MAX_DELAY; default 60000)')
    .option('--max-body <size>', 'largest API request body, e.g. 512kb (env SNIPPETKIT_MOCK_MAX_BODY; default 1MB)')
    .option('--log-size <n>', 'requests kept in each endpoint\'s log (env SNIPPETKIT_MOCK_LOG_SIZE; default 100)')
    .option('--max-endpoints <n>', 'most endpoints the server holds (env SNIPPETKIT_MOCK_MAX_ENDPOINTS; default 10000)')
    .option(
      '--max-log-bytes <size>',
      'bytes all request logs keep together; the oldest go first (env SNIPPETKIT_MOCK_MAX_LOG_BYTES; default 256MB)',
    )
    .option(
      '--max-store-bytes <size>',
      'memory all endpoint records may take together; past it a write is a 507 (env SNIPPETKIT_MOCK_MAX_STORE_BYTES; default 256MB)',
    )
    .option(
      '--max-request-cpu <ms>',
      'CPU time a request\'s templates or _like filters may take, then 503 (env SNIPPETKIT_MOCK_MAX_REQUEST_CPU; default 250)',
    )
    .option('--trust-proxy', 'honour X-Forwarded-For/-Proto/-Host/-Prefix (env SNIPPETKIT_MOCK_TRUST_PROXY)')
    .option(
      '--no-cors',
      'no CORS headers nor preflights, on /endpoint/* and the management API /api/*, and no writes to /api/* from other pages (env SNIPPETKIT_MOCK_CORS=false)',
    )
    .addOption(
      new Option(
        '--cors-origin <origin>',
        'a page that may use the management API besides the mock page and localhost pages; repeatable; * for any (env SNIPPETKIT_MOCK_CORS_ORIGIN, commas)',
      ).argParser((origin: string, origins: string[] = []) => [...origins, origin]),
    )
    .addOption(
      new Option(
        '--callback-host <host>',
        'a host endpoints\' callbacks may be sent to besides localhost, with :port or without; repeatable (env SNIPPETKIT_MOCK_CALLBACK_HOST, commas)',
      ).argParser((host: string, hosts: string[] = []) => [...hosts, host]),
    )
    .option(
      '--callback-timeout <ms>',
      'how long a callback may take before it is cut (env SNIPPETKIT_MOCK_CALLBACK_TIMEOUT; default 10000)',
    )
    .option(
      '--validate',
      'check requests against what their endpoint expects (its OpenAPI operation): 400, 401, 415, 422 with what is wrong (env SNIPPETKIT_MOCK_VALIDATE)',
    );
}

/** --proxy and recording, after --allowed-host in the help as they always were. */
export function addMockProxyOptions(command: Command): Command {
  return command
    .option('--proxy <url>', 'forward what no endpoint answers to this API (env SNIPPETKIT_MOCK_PROXY)')
    .option(
      '--proxy-timeout <ms>',
      'answer 504 when --proxy\'s target is silent this long (env SNIPPETKIT_MOCK_PROXY_TIMEOUT; default 30000)',
    )
    .option('--record', 'save each new proxied answer as an endpoint to replay offline (env SNIPPETKIT_MOCK_RECORD)')
    .option('--record-cookies', 'keep Set-Cookie in recordings (env SNIPPETKIT_MOCK_RECORD_COOKIES)');
}
