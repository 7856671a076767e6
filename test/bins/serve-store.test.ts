import { expect } from 'chai';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, startServerProcess } from '../helpers/cli.js';
import { freshDatabase, freshRedisPrefix, sharedRedis } from '../helpers/services.js';
import { tempDir } from '../helpers/temp.js';

// `serve-bins --store URL`: the bins on a shared PostgreSQL or Redis (docs/stores.md).

const OPEN = { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' };

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe('serve-bins --store', function () {
  this.timeout(60_000);

  it('refuses a URL of a store it does not run on, as a usage error', async () => {
    const result = await runCli(['serve-bins', '--store', 'mysql://db/bins']);
    expect([result.code, result.stderr.trim()]).to.deep.equal([
      2,
      'snippetkit: --store mysql://db/bins (flag) is not a postgres://, postgresql://, redis:// or rediss:// URL',
    ]);
  });

  it('refuses --data beside a store, naming where each came from', async () => {
    const temp = tempDir();
    try {
      const file = join(temp.dir, 'bins.sqlite');
      const result = await runCli(['serve-bins', '--data', file], { SNIPPETKIT_BIN_STORE: 'redis://127.0.0.1:6379' });
      expect([result.code, result.stderr.trim()]).to.deep.equal([
        2,
        'snippetkit: --data and SNIPPETKIT_BIN_STORE both name where the bins are; give one',
      ]);
    } finally {
      temp.cleanup();
    }
  });

  for (const [name, url] of [
    ['PostgreSQL', (port: number) => `postgres://snippetkit:secret@127.0.0.1:${port}/bins`],
    ['Redis', (port: number) => `redis://:secret@127.0.0.1:${port}`],
  ] as const) {
    it(`stops with exit code 3 when ${name} cannot be reached at start, never showing the password`, async () => {
      const port = await closedPort();
      const result = await runCli(['serve-bins', '--port', '0', '--store', url(port)]);
      expect(result.code).to.equal(3);
      expect(result.stderr).to.include(`127.0.0.1:${port}`).and.include('ECONNREFUSED').and.not.include('secret');
    });
  }

  for (const [name, store] of [
    ['PostgreSQL', async () => freshDatabase()],
    ['Redis', async () => `${await sharedRedis()}?prefix=${freshRedisPrefix()}`],
  ] as const) {
    it(`serves bins from ${name}, names the store in its start-up line, and keeps them across a restart`, async () => {
      const url = await store();
      const first = await startServerProcess(['serve-bins', '--port', '0', '--store', url], OPEN);
      let saved: { url: string; snapshot: number };
      try {
        expect(first.banner).to.include(`store ${url.replace(/\?prefix=.*/, '')}`);
        const res = await fetch(`${first.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: '<p>kept</p>' }) });
        saved = (await res.json()) as typeof saved;
        expect(saved.snapshot).to.equal(1);
      } finally {
        await first.stop();
      }
      const second = await startServerProcess(['serve-bins', '--port', '0', '--store', url], OPEN);
      try {
        const bin = (await (await fetch(`${second.url}/api/${saved.url}`)).json()) as { html: string };
        expect(bin.html).to.equal('<p>kept</p>');
      } finally {
        await second.stop();
      }
    });
  }
});
