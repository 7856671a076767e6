import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pluralDb, startDbServer, type DbServer } from '../../mocks/collections/plural-db.js';
import { usePage } from '../browser.js';

/**
 * Another site (another port, `localhost` rather than 127.0.0.1) whose page loads the JSONP answer
 * as json-server's users do: `<script src=".../posts?callback=got">`, under its own strict CSP.
 */
async function jsonpSite(src: string): Promise<{ url: string; server: Server }> {
  const site = createServer((_req, res) => {
    const page = `<!DOCTYPE html><html lang="en"><title>jsonp</title><script nonce="n">window.answers = [];
      function got(value) { window.answers.push(value); }</script><script nonce="n" src="${src}"></script></html>`;
    res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': "script-src 'nonce-n' http:" }).end(page);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(site.address() as AddressInfo).port}/`, server: site };
}

describe('collections: JSONP from another site, in Chromium', function () {
  this.timeout(30_000);
  let running: DbServer;
  let site: { url: string; server: Server };
  const t = usePage();
  before(async () => {
    running = await startDbServer(JSON.stringify(pluralDb()));
    site = await jsonpSite(`${running.server.url}/endpoint/posts?callback=got`);
  });
  after(async () => {
    site.server.close();
    await running.close();
  });

  it("runs the answer as the page's script despite the endpoints' sandbox CSP, calling the callback", async () => {
    await t.page.goto(site.url);
    await t.page.waitForFunction(() => (window as unknown as { answers: unknown[] }).answers.length === 1);
    const answers = await t.page.evaluate(() => (window as unknown as { answers: unknown[] }).answers);
    expect(answers).to.deep.equal([pluralDb().posts]);
  });

  it('runs nothing when opened as a page: the answer is text/javascript, not a document', async () => {
    const res = await t.page.goto(`${running.server.url}/endpoint/posts?callback=got`);
    expect(res?.headers()['content-type']).to.equal('text/javascript; charset=utf-8');
    expect(res?.headers()['content-security-policy']).to.match(/^sandbox/);
    expect(await t.page.evaluate(() => typeof (window as unknown as { answers?: unknown }).answers)).to.equal('undefined');
  });
});
