import { expect } from 'chai';
import { startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { openPage, type TestPage } from './browser.js';
import { pathOf, replaceCode } from './editor-page.js';

const KEY = 'sekrit-key';
const PRIVATE = { api: { allowAnonymousRead: false }, ownership: { api_key: KEY } };

describe('private bins in Chromium (reads need the key)', () => {
  let server: TestBinServer;
  let t: TestPage;
  before(async () => {
    server = await startBinServer(PRIVATE);
  });
  after(() => server.close());
  beforeEach(async () => {
    t = await openPage();
  });
  afterEach(() => t.close());

  async function privateBin(html: string, javascript = ''): Promise<string> {
    return (await server.store.append(undefined, () => ({ html, javascript, css: '', settings: {} }))).bin;
  }

  it('asks for the key on a private page, then opens it with the key gone from the address', async () => {
    const bin = await privateBin('<p>secret</p>');
    const first = await t.page.goto(`${server.url}/${bin}/1/edit`);
    expect(first?.status()).to.equal(403);
    await t.page.fill('input[name="api_key"]', KEY);
    await t.page.press('input[name="api_key"]', 'Enter');
    await t.page.locator('#save').waitFor();
    expect(t.page.url()).to.equal(`${server.url}/${bin}/1/edit`);
    // The editor's own stream is a read too: the cookie opened it.
    await t.page.locator('#watchers', { hasText: '0 watching' }).waitFor();
  });

  it('keeps a key holder\'s output page following live edits and relaying its console', async () => {
    const bin = await privateBin('<p>start</p>', "console.log('from the private page')");
    await t.page.goto(`${server.url}/${bin}/1/edit?api_key=${KEY}`);
    await t.page.evaluate((key) => localStorage.setItem('snippetkit:api-key', key), KEY);
    await t.page.locator('#watchers', { hasText: '0 watching' }).waitFor();

    // The output runs sandboxed: its stream, console posts and reloads carry its bin's token, not the cookie.
    const output = await t.context.newPage();
    await output.goto(`${server.url}/${bin}`);
    await t.page.locator('#watchers', { hasText: '1 watching' }).waitFor();
    await t.page.locator('#console-log li.remote', { hasText: '[remote] from the private page' }).waitFor();

    await replaceCode(t.page, 'html', '<p>typed live</p>');
    await output.locator('p', { hasText: 'typed live' }).waitFor();
    expect(pathOf(output)).to.equal(`/${bin}`);
    expect(new URL(output.url()).searchParams.has('token')).to.equal(true);
    expect(output.url()).not.to.include(KEY);
  });
});
