import { expect } from 'chai';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/until.js';
import { usePage } from './browser.js';
import { replaceCode } from './editor-page.js';

// `snippetkit serve --private-mocks` in Chromium (docs/serve.md, "Private mocks"): a bin's output page is
// sandboxed, so its calls to /endpoint/… carry no cookie; the page its owner opened carries a token for
// them. A page without the token (the same bin's /quiet page, which has none of our scripts, or the
// output page opened by a browser that never logged in) is refused.

const KEY = 'browser-test-key-0123456789';
const HTML = '<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>';
const JAVASCRIPT = `fetch('/endpoint/crew')
  .then((res) => res.json().then((body) => res.status + ' ' + (body[0] ? body[0].name : body.message.slice(0, 23))))
  .catch((err) => 'failed ' + err)
  .then((said) => { document.title = said; });`;

describe('private mocks in Chromium (snippetkit serve --private-mocks)', function () {
  this.timeout(60_000); // a server process on a loaded machine
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  let bin: string;
  const t = usePage();
  const owner = { Authorization: `token ${KEY}` };

  before(async () => {
    temp = tempDir();
    server = await startServerProcess(
      ['serve', '--port', '0', '--private-mocks', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite')],
      { SNIPPETKIT_OWNERSHIP_API_KEY: KEY },
    );
    const put = await fetch(`${server.url}/mocks/api/endpoint/crew`, {
      method: 'PUT',
      headers: { ...owner, 'content-type': 'application/json' },
      body: JSON.stringify({ data: [{ id: 1, name: 'Ada' }] }),
    });
    expect(put.status).to.equal(201);
    const saved = await fetch(`${server.url}/api/save`, { method: 'POST', headers: owner, body: new URLSearchParams({ html: HTML, javascript: JAVASCRIPT }) });
    bin = ((await saved.json()) as { url: string }).url;
  });
  after(async () => {
    await server?.stop();
    temp?.cleanup();
  });

  const titleOf = async (path: string) => {
    await t.page.goto(`${server.url}${path}`);
    await t.page.waitForFunction(() => document.title !== '');
    return t.page.title();
  };
  const hits = async () =>
    ((await (await fetch(`${server.url}/mocks/api/endpoint/crew`, { headers: owner })).json()) as { hits: number }).hits;

  it('answers the endpoint call of an output page its logged-in owner opened, and refuses a page without the token', async () => {
    const before = await hits();
    await t.page.goto(`${server.url}/?api_key=${KEY}`);
    expect(new URL(t.page.url()).search).to.equal('');
    expect(await titleOf(`/${bin}/1`)).to.equal('200 Ada');
    expect(await hits()).to.equal(before + 1);
    // Logged in too, but no token: the sandboxed page's opaque origin sends no cookie.
    expect(await titleOf(`/${bin}/1/quiet`)).to.equal('401 these mocks are private');
    expect(await hits()).to.equal(before + 1);
  });

  it('opens the mock page, whose API calls carry the session cookie, once the browser is logged in', async () => {
    const before = await t.page.goto(`${server.url}/mocks/static/`);
    expect(before!.status()).to.equal(401);
    await t.page.goto(`${server.url}/?api_key=${KEY}`);
    const page = await t.page.goto(`${server.url}/mocks/static/`);
    expect(page!.status()).to.equal(200);
    expect(await t.page.evaluate(() => fetch('../api/endpoints').then((res) => res.status))).to.equal(200);
  });

  /**
   * What the bin's script wrote into its title, in the editor's preview frame (`200 Ada`, `401 …`): a status
   * first, so the title of a page shown before (a new bin's starting HTML) is not taken for it.
   */
  const previewSays = async (): Promise<string> => {
    let said = '';
    await until(async () => {
      for (const frame of t.page.frames()) {
        if (frame === t.page.mainFrame()) continue;
        said = await frame.title().catch(() => '');
        if (/^(\d{3} |failed )/.test(said)) return true;
      }
      return false;
    });
    return said;
  };

  it('gives the editor’s preview (a srcdoc frame, no output page) a token of its own when the owner is logged in', async () => {
    const before = await hits();
    await t.page.goto(`${server.url}/?api_key=${KEY}`);
    await t.page.goto(`${server.url}/${bin}/1/edit`);
    expect(await previewSays()).to.equal('200 Ada');
    expect(await hits()).to.equal(before + 1);
  });

  it('gives the preview of a new bin, not saved yet, a token too, and its calls name no bin in the log', async () => {
    const before = await hits();
    await t.page.goto(`${server.url}/?api_key=${KEY}`);
    await t.page.goto(`${server.url}/`);
    await replaceCode(t.page, 'html', HTML);
    await replaceCode(t.page, 'javascript', JAVASCRIPT);
    expect(await previewSays()).to.equal('200 Ada');
    expect(await hits()).to.equal(before + 1);
    const log = (await (await fetch(`${server.url}/mocks/api/endpoint/crew/requests`, { headers: owner })).json()) as { requests: { bin?: string }[] };
    expect(log.requests[0]!.bin).to.equal(undefined);
  });

  it('refuses the editor preview’s call in a browser that never gave the key: it gets no token', async () => {
    const before = await hits();
    await t.page.goto(`${server.url}/${bin}/1/edit`);
    expect(await previewSays()).to.equal('401 these mocks are private');
    expect(await hits()).to.equal(before);
  });

  it('refuses the same output page’s call in a browser that never gave the key', async () => {
    const before = await hits();
    expect(await titleOf(`/${bin}/1`)).to.equal('401 these mocks are private');
    expect(await hits()).to.equal(before);
  });
});
