import { expect } from 'chai';
import { KEYED, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { openPage, type TestPage } from './browser.js';
import { pathOf, replaceCode } from './editor-page.js';

const KEY = 'sekrit-key'; // KEYED's ownership.api_key

describe('the editor in Chromium on a server that needs a key', () => {
  let server: TestBinServer;
  let t: TestPage;
  before(async () => {
    server = await startBinServer(KEYED);
  });
  after(() => server.close());
  beforeEach(async () => {
    t = await openPage();
    await t.page.goto(server.url + '/');
    await replaceCode(t.page, 'html', '<p>keyed</p>');
  });
  afterEach(() => t.close());

  /** Waits for the key dialog and answers it; resolves with the reason it showed. */
  async function answerKey(key: string | undefined): Promise<string> {
    await t.page.locator('#key-dialog').waitFor();
    const reason = await t.page.locator('#key-reason').innerText();
    if (key === undefined) {
      await t.page.click('#key-dialog button[value="cancel"]');
    } else {
      await t.page.fill('#key-input', key);
      await t.page.click('#key-dialog button[value="ok"]');
    }
    return reason;
  }

  it('asks for the key when a save is refused, saves with it and keeps it for the next save', async () => {
    await t.page.click('#save');
    expect(await answerKey(KEY)).to.equal('You need to provide a valid API key when using this API');
    await t.page.waitForURL(/\/[a-z]+\/1\/edit$/);
    expect(await t.page.evaluate(() => localStorage.getItem('snippetkit:api-key'))).to.equal(KEY);

    await replaceCode(t.page, 'html', '<p>keyed again</p>');
    await t.page.click('#save');
    await t.page.waitForURL(/\/[a-z]+\/2\/edit$/);
    expect(await t.page.isVisible('#key-dialog')).to.equal(false);
  });

  it('sends the key in the Authorization header, never in the URL', async () => {
    const saves: { url: string; authorization: string | undefined }[] = [];
    t.page.on('request', (request) => {
      if (request.url().endsWith('/save')) saves.push({ url: request.url(), authorization: request.headers().authorization });
    });
    await t.page.click('#save');
    await answerKey(KEY);
    await t.page.waitForURL(/\/1\/edit$/);
    expect(saves).to.deep.equal([
      { url: `${server.url}/api/save`, authorization: undefined },
      { url: `${server.url}/api/save`, authorization: `token ${KEY}` },
    ]);
  });

  it('saves without asking once logged in by the ?api_key= address, sending no key at all', async () => {
    await t.page.goto(`${server.url}/?api_key=${KEY}`);
    expect(pathOf(t.page), 'the key leaves the address bar').to.equal('/');
    const saves: (string | undefined)[] = [];
    t.page.on('request', (request) => {
      if (request.url().endsWith('/save')) saves.push(request.headers().authorization);
    });
    await replaceCode(t.page, 'html', '<p>logged in</p>');
    await t.page.click('#save');
    await t.page.waitForURL(/\/[a-z]+\/1\/edit$/);
    await replaceCode(t.page, 'html', '<p>logged in, again</p>');
    await t.page.click('#save');
    await t.page.waitForURL(/\/[a-z]+\/2\/edit$/);
    expect(await t.page.isVisible('#key-dialog')).to.equal(false);
    expect(saves).to.deep.equal([undefined, undefined]);
    expect(await t.page.evaluate(() => localStorage.getItem('snippetkit:api-key'))).to.equal(null);
  });

  it('opens a session with the accepted key: an HttpOnly, SameSite=Strict cookie that is not the key', async () => {
    const session = t.page.waitForResponse((res) => res.url().endsWith('/api/session'));
    await t.page.click('#save');
    await answerKey(KEY);
    expect((await session).status()).to.equal(200);
    const cookies = await t.context.cookies();
    expect(cookies.map(({ httpOnly, sameSite, path }) => ({ httpOnly, sameSite, path }))).to.deep.equal([
      { httpOnly: true, sameSite: 'Strict', path: '/' },
    ]);
    expect(cookies[0]!.value).not.to.include(KEY);
  });

  it('shows a wrong key\'s error, forgets the key and keeps the unsaved code', async () => {
    await t.page.click('#save');
    await answerKey('wrong-key');
    expect(await answerKey(undefined)).to.equal('The API key you provided is not valid');
    await t.page.locator('#status.error').waitFor();
    expect(await t.page.locator('#status').innerText()).to.equal(
      'Not saved: The API key you provided is not valid. Your code is kept in this browser.',
    );
    expect(pathOf(t.page)).to.equal('/');
    expect(await t.page.evaluate(() => localStorage.getItem('snippetkit:api-key'))).to.equal(null);
    const draft = await t.page.evaluate(() => JSON.parse(localStorage.getItem('snippetkit:draft:new') ?? 'null'));
    expect(draft?.html).to.equal('<p>keyed</p>');
  });

  it('shows a server error in the page and keeps the code', async () => {
    await t.page.evaluate(() => localStorage.setItem('snippetkit:api-key', 'sekrit-key'));
    await replaceCode(t.page, 'html', ' ');
    await t.page.click('#save');
    await t.page.locator('#status.error').waitFor();
    expect(await t.page.locator('#status').innerText()).to.equal(
      'Not saved: Unable to save: The bin has no content. Your code is kept in this browser.',
    );
  });
});

describe('the editor in Chromium on a server that saves nothing (no key, no anonymous saves)', () => {
  let server: TestBinServer;
  let t: TestPage;
  before(async () => {
    server = await startBinServer({});
  });
  after(() => server.close());
  beforeEach(async () => {
    t = await openPage();
  });
  afterEach(() => t.close());

  it('says so at once, with the setting to change, and never asks for a key', async () => {
    const saves: string[] = [];
    // Writes only: the Mocks pane's GET /api/whoami (is this `snippetkit serve`?) asks nothing of the key.
    t.page.on('request', (request) => {
      if (request.url().includes('/api/') && request.method() !== 'GET') saves.push(`${request.method()} ${request.url()}`);
    });
    await t.page.goto(server.url + '/');
    const status = t.page.locator('#status');
    await status.waitFor();
    const said = await status.innerText();
    expect(said).to.match(/^This server saves nothing: it has no API key/);
    expect(said).to.include('SNIPPETKIT_OWNERSHIP_API_KEY=<key>');
    for (const id of ['#save', '#clone', '#save-template']) {
      expect(await t.page.locator(id).isDisabled(), id).to.equal(true);
      expect(await t.page.locator(id).getAttribute('title'), id).to.equal(said);
    }
    await replaceCode(t.page, 'html', '<p>not saved</p>');
    await status.evaluate((element) => ((element as HTMLElement).hidden = true));
    await t.page.keyboard.press('ControlOrMeta+S');
    await status.waitFor();
    expect(await status.innerText()).to.equal(said);
    expect(await t.page.isVisible('#key-dialog')).to.equal(false);
    expect(saves).to.deep.equal([]);
  });
});

describe('the editor in Chromium on serve-bins with the key it made itself', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  let t: TestPage;
  before(async () => {
    temp = tempDir();
    const env = { XDG_DATA_HOME: join(temp.dir, 'data') };
    server = await startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'bins.sqlite')], env);
  });
  after(async () => {
    await server.stop();
    temp.cleanup();
  });
  beforeEach(async () => {
    t = await openPage();
  });
  afterEach(() => t.close());

  it('saves at once after the address the server printed', async () => {
    const login = /open (http:\/\/\S+\?api_key=\S+)/.exec(server.stdout())![1]!;
    await t.page.goto(login);
    await replaceCode(t.page, 'html', '<p>first save</p>');
    await t.page.click('#save');
    await t.page.waitForURL(/\/[a-z]+\/1\/edit$/);
    expect(await t.page.isVisible('#key-dialog')).to.equal(false);
  });

  it('tells a browser that is not logged in how to find the key, in the key dialog', async () => {
    await t.page.goto(`${server.url}/`);
    await replaceCode(t.page, 'html', '<p>not logged in</p>');
    await t.page.click('#save');
    await t.page.locator('#key-dialog').waitFor();
    expect(await t.page.locator('#key-hint').innerText()).to.equal(
      "This server made its own key: open the address serve-bins printed when it started, which logs this browser in, " +
        "or paste the key from the file api-key in snippetkit's data folder. Kept in this browser's storage and sent with saves.",
    );
    await t.page.click('#key-dialog button[value="cancel"]');
  });
});
