import { expect } from 'chai';
import type { Locator, Page, Request } from 'playwright-core';
import { addEndpoint, startMockServer, type TestMockServer } from '../../mocks/server.js';
import { openPage, screenshot, type TestPage } from '../browser.js';
import { addPair, fieldset, openEndpoint, pairs, replaceJson } from './mock-page-fixtures.js';

/** The record as GET /api/endpoint/<name> answers it, without what the server adds. */
async function storedRecord(server: TestMockServer, name: string): Promise<Record<string, unknown>> {
  const res = await server.fetch(`/api/endpoint/${name}`);
  expect(res.status).to.equal(200);
  const { success, hits, lastCall, created, updated, url, ...record } = await res.json();
  expect({ success, hits, lastCall }).to.deep.equal({ success: true, hits: 0, lastCall: null });
  expect([created, updated, url].every((value) => typeof value === 'string')).to.equal(true);
  return record;
}

/** Saves the form and waits for the server's answer; the request the page sent. */
async function save(page: Page): Promise<Request> {
  const sent = page.waitForRequest((request) => request.method() === 'PUT');
  await page.click('#save');
  const request = await sent;
  await request.response();
  return request;
}

const card = (page: Page, index: number): Locator => page.locator('#responses > li').nth(index);
const value = (scope: Locator, label: string): Promise<string> =>
  scope.getByLabel(label, { exact: true }).inputValue();

describe('the mock page against the server: round trips, its 400s, "Try it"', function () {
  // The round trip takes about 7 s alone; room for a loaded machine.
  this.timeout(60_000);
  let server: TestMockServer;
  let t: TestPage;
  beforeEach(async () => {
    server = await startMockServer();
    t = await openPage();
  });
  afterEach(async () => {
    await t.close();
    await server.close();
    expect(t.errors).to.deep.equal([]);
  });

  it('saves every field set in the form, and shows each again after a reload', async () => {
    const { page } = t;
    await page.goto(`${server.url}/static/#new`);
    await page.fill('#name', 'user');
    await page.fill('#path', 'users/:id');
    await page.check('#method-get');
    await page.check('#method-put');
    await page.selectOption('#status-code', 'other');
    await page.fill('#status-other', '299');
    await page.selectOption('#delay-mode', 'range');
    await page.fill('#delay-min', '5');
    await page.fill('#delay-max', '20');
    await page.selectOption('#fault', 'reset');
    await page.fill('#fault-rate', '0.25');
    await page.check('#template');
    await addPair(page.locator('#headers-slot'), 'Response headers', 'X-Request-Id', '{{uuid}}');
    await replaceJson(page, '{"id": "{{params.id}}"}');
    await page.selectOption('#pick', 'random');
    await page.click('#add-response');
    await page.click('#add-response');
    await card(page, 0).locator('.response-toggle').click();
    await fieldset(card(page, 0), 'Method').getByLabel('PUT').check();
    await card(page, 0).getByLabel('Status', { exact: true }).selectOption('204');
    const second = card(page, 1);
    await second.locator('.response-toggle').click();
    await addPair(second, 'Path parameters', 'id', '7');
    await addPair(second, 'Query', 'role', 'admin');
    await addPair(second, 'Query', 'role', 'owner');
    await addPair(second, 'Headers', 'X-Tenant', 'acme');
    await second.getByLabel(/^Body contains/).fill('{"type": "refund"}');
    await second.getByLabel('Delay kind').selectOption('fixed');
    await second.getByLabel('Delay (ms)', { exact: true }).fill('3');
    await second.getByLabel('Fault', { exact: true }).selectOption('empty');
    await second.getByLabel('Answer', { exact: true }).selectOption('data');
    await second.getByLabel('Answer text').fill('{"admin": true}');
    await addPair(second, 'Response headers', 'X-Admin', 'yes');
    await second.getByRole('button', { name: 'Move #2 up' }).click();
    await save(page);
    await page.waitForURL(/#endpoint\/user$/);

    const meant = {
      name: 'user',
      path: 'users/:id',
      methods: ['GET', 'PUT'],
      statusCode: 299,
      data: { id: '{{params.id}}' },
      delay: { min: 5, max: 20 },
      headers: { 'X-Request-Id': '{{uuid}}' },
      template: true,
      responses: [
        {
          when: {
            params: { id: '7' },
            query: { role: ['admin', 'owner'] },
            headers: { 'x-tenant': 'acme' },
            body: { type: 'refund' },
          },
          data: { admin: true },
          headers: { 'X-Admin': 'yes' },
          delay: 3,
          fault: 'empty',
        },
        { when: { method: ['PUT'] }, statusCode: 204 },
      ],
      pick: 'random',
      fault: 'reset',
      faultRate: 0.25,
    };
    expect(await storedRecord(server, 'user')).to.deep.equal(meant);

    await page.goto(`${server.url}/static/`);
    await page.click('#endpoint-list a[data-name="user"]');
    await page.locator('#log-state', { hasText: 'live' }).waitFor();
    expect(await page.inputValue('#name')).to.equal('user');
    expect(await page.getAttribute('#name', 'readonly')).to.equal('');
    expect(await page.inputValue('#path')).to.equal('users/:id');
    const checked = await page.locator('#methods-slot input:checked').evaluateAll((boxes) =>
      boxes.map((box) => (box as HTMLInputElement).value),
    );
    expect(checked).to.deep.equal(['GET', 'PUT']);
    expect([await page.inputValue('#status-code'), await page.inputValue('#status-other')]).to.deep.equal([
      'other',
      '299',
    ]);
    expect(await page.isVisible('#status-other')).to.equal(true);
    const delay = ['#delay-mode', '#delay-min', '#delay-max'].map((id) => page.inputValue(id));
    expect(await Promise.all(delay)).to.deep.equal(['range', '5', '20']);
    expect([await page.inputValue('#fault'), await page.inputValue('#fault-rate')]).to.deep.equal(['reset', '0.25']);
    expect(await page.isChecked('#template')).to.equal(true);
    expect(await pairs(page.locator('#headers-slot'), 'Response headers')).to.deep.equal([
      ['X-Request-Id', '{{uuid}}'],
    ]);
    expect(await page.inputValue('#payload-kind')).to.equal('data');
    expect(JSON.parse(await page.locator('#data-editor .cm-content').innerText())).to.deep.equal(meant.data);
    expect(await page.inputValue('#pick')).to.equal('random');

    expect(await page.locator('#responses .response-toggle').allInnerTexts()).to.deep.equal([
      '#1 id=7 · ?role=admin|owner · x-tenant: acme · body contains {type} → fault empty',
      '#2 PUT → 204',
    ]);
    const first = card(page, 0);
    await first.locator('.response-toggle').click();
    expect(await pairs(first, 'Path parameters')).to.deep.equal([['id', '7']]);
    expect(await pairs(first, 'Query')).to.deep.equal([['role', 'admin'], ['role', 'owner']]);
    expect(await pairs(first, 'Headers')).to.deep.equal([['x-tenant', 'acme']]);
    expect(JSON.parse(await first.getByLabel(/^Body contains/).inputValue())).to.deep.equal({ type: 'refund' });
    expect(await first.locator('.methods input:checked').count()).to.equal(0);
    expect(await value(first, 'Status')).to.equal('inherit');
    expect([await value(first, 'Delay kind'), await value(first, 'Delay (ms)')]).to.deep.equal(['fixed', '3']);
    expect([await value(first, 'Fault'), await value(first, 'Fault rate (0 to 1)')]).to.deep.equal(['empty', '']);
    expect(await value(first, 'Answer')).to.equal('data');
    expect(JSON.parse(await value(first, 'Answer text'))).to.deep.equal({ admin: true });
    expect(await pairs(first, 'Response headers')).to.deep.equal([['X-Admin', 'yes']]);
    const last = card(page, 1);
    await last.locator('.response-toggle').click();
    expect(await fieldset(last, 'Method').locator('input:checked').evaluateAll((boxes) =>
      boxes.map((box) => (box as HTMLInputElement).value),
    )).to.deep.equal(['PUT']);
    expect(await value(last, 'Status')).to.equal('204');
    expect([await value(last, 'Delay kind'), await value(last, 'Fault'), await value(last, 'Answer')]).to.deep.equal(
      ['inherit', '', ''],
    );
    expect(await last.getByLabel('Answer text').isVisible()).to.equal(false);
    await screenshot(page, 'mock-page-reloaded');

    // Saved again untouched, the form sends what it showed: the same record.
    const again = await save(page);
    expect(again.postDataJSON()).to.deep.equal(meant);
    expect(await storedRecord(server, 'user')).to.deep.equal(meant);
  });

  it('round-trips an endpoint answering a text body instead of data', async () => {
    const { page } = t;
    await page.goto(`${server.url}/static/#new`);
    await page.fill('#name', 'feed');
    await page.selectOption('#payload-kind', 'body');
    const xml = '<feed>\n  <item id="1">caf\u00e9 &amp; cr\u00e8me</item>\n</feed>\n';
    await page.fill('#body', xml);
    await addPair(page.locator('#headers-slot'), 'Response headers', 'Content-Type', 'application/atom+xml');
    const sent = await save(page);
    await page.waitForURL(/#endpoint\/feed$/);
    const meant = {
      name: 'feed',
      statusCode: 200,
      body: xml,
      delay: 0,
      headers: { 'Content-Type': 'application/atom+xml' },
    };
    expect(sent.postDataJSON()).to.deep.equal(meant);
    expect(await storedRecord(server, 'feed')).to.deep.equal(meant);

    await page.reload();
    await page.locator('#log-state', { hasText: 'live' }).waitFor();
    expect(await page.inputValue('#payload-kind')).to.equal('body');
    expect(await page.inputValue('#body')).to.equal(xml);
    expect([await page.isVisible('#body'), await page.isVisible('#data-editor')]).to.deep.equal([true, false]);
    expect(await page.isEnabled('#save')).to.equal(true);
    expect((await save(page)).postDataJSON()).to.deep.equal(meant);

    const res = await server.fetch('/endpoint/feed');
    expect(res.headers.get('content-type')).to.equal('application/atom+xml');
    expect(await res.text()).to.equal(xml);
  });

  it('round-trips bytes in base64 (pasted in lines, sent without them), and a bad one is refused at that box', async () => {
    const { page } = t;
    const bytes = Buffer.from(Array.from({ length: 120 }, (_, i) => (i * 37) % 256));
    const base64 = bytes.toString('base64');
    await page.goto(`${server.url}/static/#new`);
    await page.fill('#name', 'icon');
    await page.selectOption('#payload-kind', 'base64Body');
    await page.fill('#body', 'AAE'); // not padded
    await save(page);
    await page.locator('#form-error', { hasText: 'base64Body must be' }).waitFor();
    expect(await page.getAttribute('#body', 'aria-invalid')).to.equal('true');
    await page.fill('#body', base64.replace(/(.{76})/g, '$1\n'));
    await addPair(page.locator('#headers-slot'), 'Response headers', 'Content-Type', 'image/x-icon');
    const sent = await save(page);
    await page.waitForURL(/#endpoint\/icon$/);
    const meant = { name: 'icon', statusCode: 200, base64Body: base64, delay: 0, headers: { 'Content-Type': 'image/x-icon' } };
    expect(sent.postDataJSON()).to.deep.equal(meant);

    await page.reload();
    await page.locator('#log-state', { hasText: 'live' }).waitFor();
    expect(await page.inputValue('#payload-kind')).to.equal('base64Body');
    expect(await page.inputValue('#body')).to.equal(base64);
    expect((await save(page)).postDataJSON()).to.deep.equal(meant);
    const res = await server.fetch('/endpoint/icon');
    expect(Buffer.from(await res.arrayBuffer())).to.deep.equal(bytes);
  });

  it("shows the server's 400 on a response's delay at that box, focused, and stores nothing", async () => {
    const { page } = t;
    await page.goto(`${server.url}/static/#new`);
    await page.fill('#name', 'slow');
    await page.click('#add-response');
    await card(page, 0).getByLabel('Delay kind').selectOption('range');
    await card(page, 0).getByLabel('Shortest delay (ms)').fill('10');
    const max = card(page, 0).getByLabel('Longest delay (ms)');
    await max.fill('60001');
    const answer = await (await save(page)).response();
    expect(answer?.status()).to.equal(400);
    const note = page.locator('[data-field="responses[0].delay.max"] + .field-error');
    await note.waitFor();
    expect(await note.innerText()).to.equal('responses[0].delay.max must be a number of milliseconds from 0 to 60000');
    expect(await max.getAttribute('aria-invalid')).to.equal('true');
    expect(await max.evaluate((element) => element === document.activeElement)).to.equal(true);
    expect(server.store.get('slow')).to.equal(undefined);
  });

  it("shows the server's 400 on a response's when.query at that fieldset, and stores nothing", async () => {
    const { page } = t;
    await page.goto(`${server.url}/static/#new`);
    await page.fill('#name', 'proto');
    await page.click('#add-response');
    await page.click('#add-response');
    // A name an object cannot hold as a key: the page must send it for the server to refuse, not drop it.
    await addPair(card(page, 1), 'Query', '__proto__', 'x');
    const request = await save(page);
    expect(request.postData()).to.include('"responses":[{},{"when":{"query":{"__proto__":"x"}}}]');
    expect((await request.response())?.status()).to.equal(400);
    const query = fieldset(card(page, 1), 'Query');
    const note = page.locator('fieldset[data-field="responses[1].when.query"] + .field-error');
    await note.waitFor();
    expect(await note.innerText()).to.equal("responses[1].when.query: '__proto__' cannot be used as a name");
    expect(await query.getAttribute('aria-invalid')).to.equal('true');
    expect(await query.locator('.pair-name').evaluate((element) => element === document.activeElement)).to.equal(true);
    expect(server.store.get('proto')).to.equal(undefined);
  });

  it('"Try it" fills in the path parameter and shows the answer the server logged', async () => {
    await addEndpoint(server, {
      name: 'member',
      path: 'users/:id',
      methods: ['GET', 'PUT'],
      template: true,
      data: { id: '{{params.id}}' },
      responses: [
        {
          when: { method: 'PUT', query: { role: 'admin' } },
          statusCode: 201,
          data: { id: '{{params.id}}', admin: true },
        },
      ],
    });
    const { page } = t;
    await openEndpoint(page, server.url, 'member');
    expect(await page.locator('#try-method option').allInnerTexts()).to.deep.equal(['GET', 'PUT']);
    await page.selectOption('#try-method', 'PUT');
    // A slash and a space in the value stay inside the one segment.
    await page.fill('#try-param-id', 'a/b c');
    await addPair(page.locator('#try-it'), 'Query', 'role', 'admin');
    const url = '/endpoint/users/a%2Fb%20c?role=admin';
    expect(await page.locator('#try-url').innerText()).to.equal(`PUT ${server.url}${url}`);
    await page.click('#try');
    await page.locator('#try-status', { hasText: '201' }).waitFor();
    expect(await page.locator('#try-status').innerText()).to.equal('201 Created');
    expect(JSON.parse(await page.locator('#try-response').innerText())).to.deep.equal({ id: 'a/b c', admin: true });

    const res = await server.fetch('/api/endpoint/member/requests');
    const [logged] = (await res.json()).requests;
    expect(logged).to.deep.include({ method: 'PUT', url, response: 0, status: 201 });
    await page.locator('#requests .answer', { hasText: '#1 → 201' }).waitFor();
    expect(await page.locator('#requests details[open] .url').allInnerTexts()).to.deep.equal([url]);
  });

  it('"Try it" on a hanging endpoint can be cancelled, and tries again after', async () => {
    await addEndpoint(server, { name: 'stuck', data: 1, fault: 'hang' });
    const { page } = t;
    await openEndpoint(page, server.url, 'stuck');
    await page.click('#try');
    // Logged means the server holds the call: from here only the page can end it.
    await page.locator('#requests li').waitFor();
    expect(await page.innerText('#try')).to.equal('Cancel');
    await page.click('#try');
    await page.locator('#try-status', { hasText: 'Cancelled before an answer came' }).waitFor();
    expect(await page.innerText('#try')).to.equal('Try it');
    await page.click('#try');
    await page.locator('#requests li').nth(1).waitFor();
    expect(await page.innerText('#try')).to.equal('Cancel');
  });
});
