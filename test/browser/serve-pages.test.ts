import { expect } from 'chai';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { screenshot, usePage } from './browser.js';
import { replaceCode } from './editor-page.js';

// `snippetkit serve` in Chromium: the mock page works under /mocks/, and a bin's sandboxed output page
// calls /endpoint/… on its own origin with a relative URL.

describe('snippetkit serve in Chromium', function () {
  this.timeout(60_000); // a server process on a loaded machine
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  const t = usePage();

  before(async () => {
    temp = tempDir();
    server = await startServerProcess(
      ['serve', '--port', '0', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite')],
      { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' },
    );
    const added = await fetch(`${server.url}/mocks/api/endpoint/crew`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: [{ id: 1, name: 'Ada' }] }),
    });
    expect(added.status).to.equal(201);
  });
  after(async () => {
    await server?.stop();
    temp?.cleanup();
  });

  it('opens the mock page at /mocks, lists the endpoints and follows its links under /mocks/', async () => {
    await t.page.goto(`${server.url}/mocks`);
    expect(new URL(t.page.url()).pathname).to.equal('/mocks/static/');
    await t.page.locator('#endpoints tbody tr', { hasText: 'crew' }).waitFor();
    await t.page.click('#endpoints tbody tr a:has-text("crew")');
    await t.page.waitForURL(/#endpoint\/crew$/);
    // The form is hidden until the record has loaded into it.
    await t.page.locator('#endpoint-form').waitFor();
    expect(await t.page.inputValue('#name')).to.equal('crew');
    await screenshot(t.page, 'serve-mock-page');
  });

  it('hands out endpoint URLs at the origin\'s /endpoint/, not under /mocks/', async () => {
    await t.page.goto(`${server.url}/mocks/#endpoint/crew`);
    await t.page.locator('#endpoint-form').waitFor();
    expect(await t.page.locator('#endpoint-url').innerText()).to.equal(`${server.url}/endpoint/crew`);
    await t.page.goto(`${server.url}/mocks/`);
    await t.page.locator('#unmatched-empty .endpoint-base', { hasText: 'endpoint/' }).waitFor();
    expect(await t.page.locator('#unmatched-empty .endpoint-base').textContent()).to.equal(`${server.url}/endpoint/`);
  });

  it('says in the editor\'s console which endpoint and response answered a call (→ crew, → login #1)', async () => {
    const added = await fetch(`${server.url}/mocks/api/endpoint/login`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { ok: true }, responses: [{ when: { method: ['POST'] }, statusCode: 401, data: { ok: false } }] }),
    });
    expect(added.status).to.equal(201);
    await t.page.goto(`${server.url}/`);
    const code = [
      "fetch('/endpoint/crew');",
      "const x = new XMLHttpRequest(); x.open('POST', '/endpoint/login'); x.send('{}');",
      "fetch('/api/whoami').catch(() => {}); // not a mock, and no CORS: a failed call, named by no endpoint",
    ].join('\n');
    await replaceCode(t.page, 'javascript', code);
    const lines = t.page.locator('#console-log li.network');
    await t.page.locator('#console-log li.network', { hasText: 'whoami' }).waitFor();
    await t.page.locator('#console-log li.network', { hasText: 'login' }).waitFor();
    await t.page.locator('#console-log li.network', { hasText: 'crew' }).waitFor();
    const texts = await lines.allInnerTexts();
    const line = (part: string) => texts.find((text) => text.includes(part))!;
    expect(line('/endpoint/crew')).to.match(/^GET http:\/\/127\.0\.0\.1:\d+\/endpoint\/crew 200 · \d+ ms · \d+ B → crew$/);
    expect(line('/endpoint/login')).to.match(/ 401 · \d+ ms · \d+ B → login #1$/);
    expect(line('/api/whoami')).not.to.include('→');
    await screenshot(t.page, 'serve-console-answers');
  });

  it('asks GET /api/whoami once per editor, though the Mocks pane, the With mocks box and the preview all need it', async () => {
    const asked: string[] = [];
    t.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/whoami') asked.push(request.url());
    });
    await t.page.goto(`${server.url}/?html,js,output,mocks`);
    // All three have had their answer: the list is filled, the box knows the server, the preview is drawn.
    await t.page.locator('#mock-list li[data-name="crew"]').waitFor();
    await t.page.locator('label.with-mocks[data-server="joint"]').waitFor({ state: 'attached' });
    await t.page.waitForFunction(() => (document.getElementById('preview') as HTMLIFrameElement).srcdoc !== '');
    expect(asked).to.have.length(1);
  });

  it("runs a bin whose sandboxed page fetches /endpoint/… from its own origin", async () => {
    const html = '<p id=out>waiting</p><script>fetch("/endpoint/crew").then(r => r.json()).then(c => out.textContent = c[0].name)</script>';
    const saved = await fetch(`${server.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html }) });
    const { url } = (await saved.json()) as { url: string };
    await t.page.goto(`${server.url}/${url}/1`);
    await t.page.locator('#out', { hasText: 'Ada' }).waitFor();
    const log = (await (await fetch(`${server.url}/mocks/api/endpoint/crew/requests`)).json()) as { requests: unknown[] };
    expect(log.requests.length).to.be.greaterThan(0);
  });
});
