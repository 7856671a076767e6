import { expect } from 'chai';
import { addEndpoint, type TestMockServer } from '../../mocks/server.js';
import { openSocket } from '../../mocks/streams/socket-client.js';
import { screenshot, type TestPage } from '../browser.js';
import { openEndpoint, withMockPage } from './mock-page-fixtures.js';

describe('the mock page: WebSocket and event-stream endpoints', function () {
  this.timeout(30_000);
  let server: TestMockServer;
  let t: TestPage;
  withMockPage((s) => (server = s), (p) => (t = p));

  it('makes a WebSocket endpoint from a script, placing the server’s error on its field', async () => {
    await t.page.goto(`${server.url}/static/#new`);
    await t.page.fill('#name', 'chat');
    await t.page.selectOption('#endpoint-kind', 'websocket');
    expect(await t.page.locator('#rest-fields').isVisible()).to.equal(false);
    await t.page.fill('#script', '{"onConnect": [{"data": "hi"}], "every": {"ms": 1, "data": "tick"}}');
    await t.page.click('#save');
    await t.page.locator('#form-error').waitFor();
    expect(await t.page.locator('#form-error').innerText()).to.equal('every.ms must be a whole number of milliseconds from 100 to 60000');
    // The script's `ms` is selected, where the error is.
    const selected = await t.page.$eval('#script', (text: HTMLTextAreaElement) => text.value.slice(text.selectionStart, text.selectionEnd));
    expect(selected).to.equal('"ms"');
    await t.page.fill('#script', '{"onConnect": [{"data": "hi {{query.who}}"}], "echo": true}');
    await t.page.click('#save');
    await t.page.waitForURL(/#endpoint\/chat$/);
    expect(server.store.get('chat')!.record.socket).to.deep.equal({ onConnect: [{ data: 'hi {{query.who}}' }], echo: true });
  });

  it('lists open connections and sends the box’s text to them, the messages in the live log', async () => {
    await addEndpoint(server, { name: 'room', kind: 'websocket', onConnect: [{ data: 'hello' }] });
    await openEndpoint(t.page, server.url, 'room');
    expect(await t.page.locator('#try-it').isVisible()).to.equal(false);
    expect(await t.page.locator('#endpoint-url').innerText()).to.equal(`${server.url.replace('http', 'ws')}/endpoint/room`);
    const socket = await openSocket(`${server.url}/endpoint/room`);
    expect(await socket.next()).to.equal('hello');
    await t.page.locator('#connection-list li', { hasText: 'from 127.0.0.1' }).waitFor();
    await t.page.fill('#broadcast-text', 'from the page');
    await t.page.click('#broadcast');
    expect(await socket.next()).to.equal('from the page');
    // The socket may have the message before the page has the API's answer: wait for the page's words.
    await t.page.locator('#broadcast-state', { hasText: /^Sent to 1 open connection$/ }).waitFor();
    await t.page.locator('#requests li', { hasText: 'connection all out' }).waitFor();
    expect(await t.page.locator('#requests li', { hasText: 'open' }).count()).to.be.at.least(1);
    // The script shown is the record's.
    expect(JSON.parse(await t.page.inputValue('#script'))).to.deep.equal({ onConnect: [{ data: 'hello' }] });
    await screenshot(t.page, 'mock-page-websocket');
    socket.close();
    await socket.closed;
  });
});
