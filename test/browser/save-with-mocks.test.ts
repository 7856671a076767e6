import { expect } from 'chai';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../helpers/cli.js';
import { OPEN, startBinServer } from '../helpers/bin-server.js';
import { tempDir } from '../helpers/temp.js';
import { screenshot, usePage } from './browser.js';
import { replaceCode } from './editor-page.js';

// The Save region's "with mocks" box (docs/bin-api.md, "A sketch with its API"): shown on snippetkit serve
// only, remembered in this browser, and a ticked Save keeps the endpoints the code calls with the revision.

const CREW = { name: 'crew', path: 'crew/:id?', statusCode: 200, data: [{ id: 1, name: 'Ada' }], delay: 0 };

describe('the editor\'s Save with mocks', function () {
  this.timeout(60_000); // a server process on a loaded machine
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  const t = usePage();
  const box = () => t.page.locator('#save-with-mocks');
  /** Once the editor has heard it is on snippetkit serve; the box may be in the More menu on a short toolbar. */
  const shown = () => t.page.locator('label.with-mocks:not([hidden])').waitFor({ state: 'attached' });
  const tick = async (on: boolean) => {
    if ((await t.page.locator('#more-menu #save-with-mocks').count()) > 0) await t.page.click('#more');
    await box().setChecked(on);
  };
  const revision = async (path: string) => (await fetch(`${server.url}/api/${path}`)).json();
  const savedPath = async () => {
    await t.page.waitForURL(/\/[a-z]+\/\d+\/edit$/);
    return new URL(t.page.url()).pathname.split('/').slice(1, 3).join('/');
  };

  before(async () => {
    temp = tempDir();
    server = await startServerProcess(
      ['serve', '--port', '0', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite')],
      { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' },
    );
    const added = await fetch(`${server.url}/mocks/api/endpoint/crew`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(CREW),
    });
    expect(added.status).to.equal(201);
  });
  after(async () => {
    await server?.stop();
    temp?.cleanup();
  });

  it('shows the box beside Save on snippetkit serve, and a ticked Save keeps the endpoints the code calls', async () => {
    await t.page.goto(`${server.url}/`);
    await shown();
    expect(await box().isChecked()).to.equal(false);
    await replaceCode(t.page, 'javascript', "fetch('/endpoint/crew/1').then((res) => res.json()).then(console.log);");
    await tick(true);
    await screenshot(t.page, 'save-with-mocks');
    await t.page.click('#save');
    const saved = await savedPath();
    const stored = await revision(saved);
    expect(stored.mocks).to.deep.equal([CREW]);
    expect(stored.settings).to.not.have.property('mocks');
  });

  it('remembers the box in this browser: ticked after a reload, and an unticked Save keeps no mocks', async () => {
    await t.page.goto(`${server.url}/`);
    await shown();
    await tick(true);
    await t.page.reload();
    await shown();
    expect(await box().isChecked()).to.equal(true);
    await replaceCode(t.page, 'javascript', "fetch('/endpoint/crew')");
    await tick(false);
    await t.page.click('#save');
    const saved = await savedPath();
    expect(Object.keys(await revision(saved))).to.not.include('mocks');
    await t.page.reload();
    await shown();
    expect(await box().isChecked()).to.equal(false);
  });

  it('saves nothing when the mock API cannot be read, and says so', async () => {
    await t.page.goto(`${server.url}/`);
    await shown();
    await tick(true);
    await replaceCode(t.page, 'javascript', "fetch('/endpoint/crew')");
    await t.page.route('**/mocks/api/endpoints', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"success":false,"message":"the store is busy"}' }),
    );
    let saves = 0;
    t.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/save')) saves++;
    });
    await t.page.click('#save');
    await t.page.locator('#status', { hasText: 'Not saved: its mocks could not be read (the store is busy).' }).waitFor();
    expect(saves).to.equal(0);
    expect(new URL(t.page.url()).pathname).to.equal('/');
  });

  it('shows no box on a watch page, which has no Save', async () => {
    const res = await fetch(`${server.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: '<p>watched</p>' }) });
    const { url: bin } = (await res.json()) as { url: string };
    await t.page.goto(`${server.url}/${bin}/watch`);
    await t.page.locator('label.with-mocks[data-server="no-save"]').waitFor({ state: 'attached' });
    expect(await t.page.locator('label.with-mocks').isHidden()).to.equal(true);
  });

  it('shows no box on a bin server alone, which has no mocks', async () => {
    const alone = await startBinServer(OPEN);
    try {
      await t.page.goto(`${alone.url}/`);
      await t.page.locator('label.with-mocks[data-server="bins"]').waitFor({ state: 'attached' });
      expect(await t.page.locator('label.with-mocks').isHidden()).to.equal(true);
    } finally {
      await alone.close();
    }
  });
});
