import { expect } from 'chai';
import { join } from 'node:path';
import { runCli, startServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

// What a page on another origin sends before it manages endpoints with a JSON PUT.
const PREFLIGHT = {
  method: 'OPTIONS',
  headers: {
    origin: 'https://elsewhere.example',
    'access-control-request-method': 'PUT',
    'access-control-request-headers': 'content-type',
  },
};

describe('snippetkit serve-mocks --no-cors', function () {
  this.timeout(60_000); // a server process and a CLI run: seconds each on a loaded 2-core machine

  it('says in --help that it covers the management API too', async () => {
    const result = await runCli(['serve-mocks', '--help']);
    expect(result.code, result.stderr).to.equal(0);
    const help = result.stdout.replace(/\s+/g, ' '); // commander wraps descriptions at 80 columns
    expect(help).to.include('--no-cors no CORS headers nor preflights, on /endpoint/* and the management API /api/*');
  });

  it('answers a preflight to the management API, and to an endpoint, with no CORS headers', async () => {
    const temp = tempDir();
    const args = ['serve-mocks', '--port', '0', '--data', join(temp.dir, 'mocks.sqlite'), '--no-cors'];
    const server = await startServerProcess(args);
    try {
      for (const path of ['/api/endpoint/add', '/endpoint/users']) {
        const res = await fetch(`${server.url}${path}`, PREFLIGHT);
        expect(res.headers.get('access-control-allow-origin'), path).to.equal(null);
        expect(res.headers.get('access-control-allow-methods'), path).to.equal(null);
      }
    } finally {
      await server.stop();
      temp.cleanup();
    }
  });
});
