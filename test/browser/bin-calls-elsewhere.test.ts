import { expect } from 'chai';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../mocks/server.js';
import { usePage } from './browser.js';

// The mock page's bins beyond the open joint server of serve-bin-calls.test.ts: "Try it in a bin" where the
// bin server's saves need its key, and the page of a mock server alone, which knows no bin server.

describe('“Try it in a bin” where saves need the key (snippetkit serve, Chromium)', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  const t = usePage();

  before(async () => {
    temp = tempDir();
    server = await startServerProcess(
      ['serve', '--port', '0', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite')],
      { SNIPPETKIT_OWNERSHIP_API_KEY: 'sekrit' },
    );
    const res = await fetch(`${server.url}/mocks/api/endpoint/crew`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: [{ id: 1 }] }),
    });
    expect(res.status).to.equal(201);
  });
  after(async () => {
    await server?.stop();
    temp?.cleanup();
  });

  it('says why nothing was saved without the key, and saves once the browser has given it', async () => {
    await t.page.goto(`${server.url}/mocks/#endpoint/crew`);
    await t.page.click('#try-in-bin');
    const status = t.page.locator('#try-in-bin-status.error');
    await status.waitFor();
    expect(await status.innerText()).to.match(/^Not saved: .+\. Open the editor once with the key/);
    expect(t.context.pages()).to.have.length(1);

    // The login address snippetkit serve prints sets the session cookie the mock page's save then carries.
    await t.page.goto(`${server.url}/?api_key=sekrit`);
    await t.page.goto(`${server.url}/mocks/#endpoint/crew`);
    const [editor] = await Promise.all([t.context.waitForEvent('page'), t.page.click('#try-in-bin')]);
    await editor.waitForURL(/\/[a-z0-9_-]+\/1\/edit\?js,console$/);
    await editor.locator('#console-log li.log', { hasText: '200 [{"id":1}]' }).waitFor();
    await editor.close();
  });
});

describe('a bin’s calls on the page of a mock server alone (Chromium)', function () {
  this.timeout(30_000);
  let server: TestMockServer;
  const t = usePage();
  before(async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'crew', data: [] });
  });
  after(() => server.close());

  it('names the bin without a link and offers no “Try it in a bin”: it knows no bin server', async () => {
    await server.fetch('/endpoint/crew', { headers: { 'X-Snippetkit-Bin': 'fumugi/3' } });
    await t.page.goto(`${server.url}/static/#endpoint/crew`);
    const from = t.page.locator('#requests .from-bin');
    await from.waitFor();
    expect(await from.innerText()).to.equal('from bin fumugi/3');
    expect(await t.page.locator('#requests a').count()).to.equal(0);
    expect(await t.page.locator('#recent-bins-list li').allInnerTexts()).to.have.length(1);
    expect(await t.page.locator('#recent-bins-list a').count()).to.equal(0);
    await t.page.locator('#try').waitFor();
    expect(await t.page.locator('#try-in-bin').isHidden()).to.equal(true);
  });
});
