import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BinApiError, SettingsError, startBinServer, type BinServer, type BinServerOptions } from 'snippetkit';
import { tempDir } from '../helpers/temp.js';

// The package's main export as a test suite uses it, imported by the package's own name (`exports`).
describe('startBinServer (the Node API)', () => {
  let bins: BinServer;
  beforeEach(async () => {
    bins = await startBinServer();
  });
  afterEach(() => bins.close());

  it('saves, reads and lists bins on a free port of 127.0.0.1, in memory', async () => {
    expect(bins.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(bins.port).to.be.above(0);
    const saved = await bins.save({ html: '<p>hello</p>', css: 'p { color: red }', settings: { title: 'Hello' } });
    expect(saved).to.deep.equal({ bin: saved.bin, revision: 1, url: `${bins.url}/${saved.bin}/1`, summary: 'hello' });
    expect(saved.bin).to.match(/^[a-z]+$/);
    const second = await bins.save({ bin: saved.bin, javascript: 'console.log(2)' });
    expect(second).to.include({ bin: saved.bin, revision: 2 });

    const latest = await bins.get(saved.bin);
    expect(latest).to.deep.include({ bin: saved.bin, revision: 2, html: '', css: '', javascript: 'console.log(2)', url: `${bins.url}/${saved.bin}/2` });
    expect(latest!.settings, 'merged over the previous revision').to.deep.equal({ title: 'Hello' });
    expect(Date.parse(latest!.lastUpdated)).to.be.closeTo(Date.now(), 60_000);
    expect(await bins.get(saved.bin, 1)).to.deep.include({ revision: 1, html: '<p>hello</p>' });
    expect(await bins.get(saved.bin, 3)).to.equal(undefined);
    expect(await bins.get('nosuchbin')).to.equal(undefined);

    const page = await fetch(saved.url);
    expect([page.status, (await page.text()).includes('<p>hello</p>')]).to.deep.equal([200, true]);
    const [listed] = await bins.list();
    expect(listed!.bin).to.equal(saved.bin);
    expect(listed!.revisions.map((r) => [r.revision, r.title, r.url])).to.deep.equal([
      [2, 'Hello', `${bins.url}/${saved.bin}/2`],
      [1, 'Hello', `${bins.url}/${saved.bin}/1`],
    ]);
  });

  it('claims a name given to save, and keeps a revision\'s mocks', async () => {
    const mocks = [{ name: 'users', data: [{ id: 1 }] }];
    expect(await bins.save({ bin: 'my-demo', html: 'x', mocks })).to.include({ bin: 'my-demo', revision: 1 });
    expect((await bins.get('my-demo'))!.mocks).to.deep.equal(mocks);
  });

  it('refuses what the REST API refuses, as a BinApiError with its status, message and field', async () => {
    const empty = await bins.save({ html: '  ' }).catch((err: unknown) => err);
    expect(empty).to.be.instanceOf(BinApiError).and.include({ status: 400, message: 'Unable to save: The bin has no content' });
    expect((empty as BinApiError).answer).to.deep.equal({ error: 'Unable to save: The bin has no content' });
    const reserved = await bins.save({ bin: 'mocks', html: 'x' }).catch((err: unknown) => err);
    expect(reserved).to.be.instanceOf(BinApiError).and.include({ status: 400, field: 'bin' });
    const status = await bins.save({ html: 'x', settings: { statusCode: 304 } }).catch((err: unknown) => err);
    expect(status).to.include({ status: 400, field: 'settings.statusCode' });
    expect(await bins.list(), 'nothing stored on a refused save').to.deep.equal([]);
  });

  it('removes a revision (the bin falls back) or the whole bin, false when there is none', async () => {
    const { bin } = await bins.save({ html: 'one' });
    await bins.save({ bin, html: 'two' });
    expect(await bins.remove(bin)).to.equal(true);
    expect(await bins.get(bin)).to.deep.include({ revision: 1, html: 'one' });
    await bins.save({ bin, html: 'three' });
    expect(await bins.remove(bin, 1)).to.equal(true);
    expect(await bins.remove(bin, 1)).to.equal(false);
    expect(await bins.removeBin(bin)).to.equal(true);
    expect(await bins.get(bin)).to.equal(undefined);
    expect(await bins.removeBin(bin)).to.equal(false);
    expect(await bins.list()).to.deep.equal([]);
  });

  it('refuses a revision the API would read as the latest, before asking it', async () => {
    const { bin } = await bins.save({ html: 'kept' });
    for (const revision of [0, -1, 1.5, Number.NaN]) {
      const refused = await bins.remove(bin, revision).catch((err: unknown) => err);
      expect(refused, String(revision)).to.be.instanceOf(RangeError).and.include({ message: `revision must be a whole number from 1, not ${revision}` });
    }
    expect(await bins.get(bin)).to.deep.include({ revision: 1 });
  });

  it('keeps its key to itself: writes without it are refused, reads are open by default', async () => {
    expect(bins.key).to.match(/^[A-Za-z0-9_-]{32}$/);
    const { bin } = await bins.save({ html: 'mine' });
    const unkeyed = await fetch(`${bins.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: 'theirs' }) });
    expect([unkeyed.status, await unkeyed.json()]).to.deep.equal([403, { error: 'You need to provide a valid API key when using this API' }]);
    expect((await fetch(`${bins.url}/api/${bin}`)).status).to.equal(200);
    const other = await startBinServer();
    try {
      expect(other.key, 'a key per server').to.not.equal(bins.key);
    } finally {
      await other.close();
    }
  });

  it('guards its loopback address with the Host check, as serve-bins does', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      request(`${bins.url}/status`, { headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end();
    });
    expect(status).to.equal(403);
  });

  it('keeps servers apart: each in-memory server has its own bins', async () => {
    const other = await startBinServer();
    try {
      await bins.save({ bin: 'only-here', html: 'x' });
      expect(other.port).to.not.equal(bins.port);
      expect(await other.list()).to.deep.equal([]);
      expect(await other.get('only-here')).to.equal(undefined);
    } finally {
      await other.close();
    }
  });

  it('closes once however often asked, and stops answering', async () => {
    const { url } = bins;
    await Promise.all([bins.close(), bins.close()]);
    const failed = await fetch(`${url}/status`).then(
      () => false,
      () => true,
    );
    expect(failed).to.equal(true);
  });
});

describe('startBinServer with options', () => {
  const ours = () => readdirSync(tmpdir()).filter((name) => name.startsWith('snippetkit-bins-'));

  it('keeps an in-memory server in a temp folder of its own, removed by close()', async () => {
    const before = ours();
    const bins = await startBinServer();
    const made = ours().filter((name) => !before.includes(name));
    await bins.close();
    expect(made).to.have.length(1);
    expect(ours()).to.not.include(made[0]);
  });

  it('keeps bins in a SQLite file given as `data`, across a restart', async () => {
    const temp = tempDir();
    try {
      const data = join(temp.dir, 'bins.sqlite');
      const first = await startBinServer({ data });
      const { bin } = await first.save({ html: 'kept' });
      await first.close();
      const second = await startBinServer({ data });
      try {
        expect(await second.get(bin)).to.deep.include({ revision: 1, html: 'kept' });
        expect((await second.save({ bin, html: 'again' })).revision).to.equal(2);
      } finally {
        await second.close();
      }
    } finally {
      temp.cleanup();
    }
  });

  it('refuses a data file another server of this process holds, until it closes', async () => {
    const temp = tempDir();
    try {
      const data = join(temp.dir, 'bins.sqlite');
      const first = await startBinServer({ data });
      const refused = await startBinServer({ data }).catch((err: unknown) => err);
      await first.close();
      expect(refused).to.be.instanceOf(Error).and.have.property('message').that.contains(`the data file ${data} is in use by another server in this process`);
      const again = await startBinServer({ data });
      await again.close();
    } finally {
      temp.cleanup();
    }
  });

  it('takes a config merged over the defaults: a private server refuses an unkeyed read', async () => {
    const bins = await startBinServer({ config: { api: { allowAnonymousRead: false }, 'max-request-size': '2kb' } });
    try {
      const { bin } = await bins.save({ html: 'secret' });
      const unkeyed = await fetch(`${bins.url}/api/${bin}`);
      expect([unkeyed.status, await unkeyed.json()]).to.deep.equal([403, { error: 'You need to provide a valid API key when using this API' }]);
      expect(await bins.get(bin)).to.deep.include({ html: 'secret' });
      const big = await bins.save({ html: 'x'.repeat(4000) }).catch((err: unknown) => err);
      expect(big).to.be.instanceOf(BinApiError).and.include({ status: 413 });
    } finally {
      await bins.close();
    }
  });

  it('takes the owner key given as `key`, and anonymous writes when the config allows them', async () => {
    const bins = await startBinServer({ key: 'my-own-key-123', config: { api: { allowAnonymousReadWrite: true } } });
    try {
      expect(bins.key).to.equal('my-own-key-123');
      const keyed = await fetch(`${bins.url}/api`, { headers: { authorization: 'token my-own-key-123' } });
      expect(keyed.status).to.equal(200);
      const anonymous = await fetch(`${bins.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: 'anyone' }) });
      expect(anonymous.status).to.equal(200);
      expect(await bins.list()).to.have.length(1);
    } finally {
      await bins.close();
    }
  });

  it('frees its port on close: a new server can take it', async () => {
    const first = await startBinServer();
    const { port } = first;
    await first.close();
    const second = await startBinServer({ port });
    try {
      expect(second.port).to.equal(port);
      expect((await fetch(`${second.url}/status`)).status).to.equal(200);
    } finally {
      await second.close();
    }
  });

  it('says a port in use as the listen error, leaving nothing behind', async () => {
    const first = await startBinServer();
    try {
      const before = ours();
      const refused = await startBinServer({ port: first.port }).catch((err: NodeJS.ErrnoException) => err);
      expect(refused).to.include({ code: 'EADDRINUSE' });
      expect(ours()).to.deep.equal(before);
    } finally {
      await first.close();
    }
  });

  const bad: [string, unknown, string][] = [
    ['a port out of range', { port: 70000 }, 'port is 70000, a number; use a port number from 0 to 65535'],
    ['a port given as text', { port: '3000' }, 'port is "3000", a string; use a port number from 0 to 65535'],
    ['a misspelt option', { prot: 0 }, 'prot is not a setting; the keys there are port, host, data, store, config, key, logger'],
    [
      'an unknown config key',
      { config: { api: { allowAnonymousWrite: true } } },
      'config.api.allowAnonymousWrite is not a setting; the keys there are allowAnonymousRead, allowAnonymousReadWrite',
    ],
    ['a config value of the wrong type', { config: { api: { allowAnonymousRead: 'no' } } }, 'config.api.allowAnonymousRead is "no", a string; use true or false'],
    ['a config that is no object', { config: 'private' }, 'config is "private", a string; use an object'],
    ['a key with a line end, without showing it', { key: 'sekrit\n' }, 'key must be a non-empty string of visible ASCII characters, without spaces or line ends'],
    ['a key that is no string', { key: 42 }, 'key must be a non-empty string'],
    ['a key in the config', { config: { ownership: { api_key: 'k' } } }, 'config.ownership.api_key is not taken here: give the owner key as the `key` option'],
    ['data and store together', { data: 'x.sqlite', store: 'redis://127.0.0.1:1' }, 'data and store both name where the bins are; give one'],
    ['a store that is no store URL', { store: 'mysql://db' }, 'store is "mysql://db", a string; use a postgres://'],
    ['a logger without its functions', { logger: console.log }, 'logger is a function; use an object with info, warn and error functions'],
  ];
  for (const [name, options, message] of bad) {
    it(`refuses ${name} with a SettingsError naming it, before opening anything`, async () => {
      const before = ours();
      const refused = await startBinServer(options as BinServerOptions).catch((err: unknown) => err);
      expect(refused).to.be.instanceOf(SettingsError);
      expect((refused as Error).message).to.contain(message).and.not.contain('sekrit');
      expect(ours()).to.deep.equal(before);
    });
  }
});
