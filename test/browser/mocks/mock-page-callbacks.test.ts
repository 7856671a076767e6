import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addEndpoint, type TestMockServer } from '../../mocks/server.js';
import { screenshot, type TestPage } from '../browser.js';
import { openEndpoint, withMockPage } from './mock-page-fixtures.js';

describe('the mock page: callbacks in the request log', function () {
  this.timeout(30_000);
  let server: TestMockServer;
  let t: TestPage;
  withMockPage((s) => (server = s), (p) => (t = p));

  it('shows each callback on its way, then its status and time, without a reload', async () => {
    // Holds each callback until the test lets it answer.
    const held: ServerResponse[] = [];
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => held.push(res));
    }).listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      await addEndpoint(server, {
        name: 'order',
        data: { ok: true },
        callbacks: [{ url: `${hook}?id={{query.id}}`, body: { id: '{{query.id}}' } }, { url: 'http://10.9.9.9/' }],
      });
      await openEndpoint(t.page, server.url, 'order');
      await server.fetch('/endpoint/order?id=4');
      const entry = t.page.locator('#requests li', { hasText: '/endpoint/order?id=4' });
      await entry.waitFor();
      expect(await entry.locator('summary').innerText()).to.include('↪ 2 callbacks');
      const items = entry.locator('ul.callbacks li');
      await items.nth(1).locator('.callback-error').waitFor();
      expect(await items.nth(0).innerText()).to.equal(`POST ${hook}?id=4 → on its way…`);
      expect(await items.nth(1).innerText()).to.equal(
        'POST http://10.9.9.9/ → not sent: 10.9.9.9 is not an allowed callback host; only loopback is allowed unless the server is started with --callback-host',
      );
      while (held.length === 0) await once(receiver, 'request');
      held[0]!.writeHead(204).end();
      await items.nth(0).locator('.callback-ok').waitFor();
      expect(await items.nth(0).innerText()).to.match(new RegExp(`^POST ${hook.replace(/[.?]/g, '\\$&')}\\?id=4 → 204 in \\d+ ms$`));
      // Still the open, newest entry: redrawn in place.
      expect(await t.page.locator('#requests details[open]').count()).to.equal(1);
      await screenshot(t.page, 'mock-page-callbacks');
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });

  it('shows callbacks in the form, keeps them through a save, and says where a list that is not JSON goes wrong', async () => {
    const own = [{ method: 'POST', url: 'http://localhost:4000/hooks/{{params.id}}', delay: 5 }];
    const theirs = [{ method: 'PUT', url: 'http://localhost:4000/declined' }];
    await addEndpoint(server, { name: 'keep', path: 'keep/:id', data: 1, callbacks: own, responses: [{ statusCode: 402, callbacks: theirs }] });
    await openEndpoint(t.page, server.url, 'keep');
    expect(JSON.parse(await t.page.inputValue('#callbacks'))).to.deep.equal(own);
    // A save from the page changes the status and keeps both lists as they were.
    await t.page.selectOption('#status-code', '201');
    await t.page.click('#save');
    await t.page.locator('#saved', { hasText: 'Saved' }).waitFor();
    expect(server.store.get('keep')!.record).to.deep.include({ statusCode: 201, callbacks: own });
    expect(server.store.get('keep')!.record.responses).to.deep.equal([{ statusCode: 402, callbacks: theirs }]);
    await t.page.fill('#callbacks', '[{ "url": ');
    await t.page.click('#save');
    await t.page.locator('#form-error', { hasText: 'callbacks: line 1' }).waitFor();
    await t.page.fill('#callbacks', '[{ "url": "ftp://x" }]');
    await t.page.click('#save');
    await t.page.locator('#form-error', { hasText: 'callbacks[0].url must be an http:// or https:// address' }).waitFor();
    expect(server.store.get('keep')!.record.callbacks).to.deep.equal(own);
  });
});
