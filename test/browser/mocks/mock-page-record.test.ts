import { expect } from 'chai';
import type { Request } from 'playwright-core';
import { addEndpoint, type TestMockServer } from '../../mocks/server.js';
import { screenshot, type TestPage } from '../browser.js';
import { addPair, fieldset, openEndpoint, replaceJson, withMockPage } from './mock-page-fixtures.js';

describe('the mock page edits the whole endpoint record', function () {
  this.timeout(30_000);
  let server: TestMockServer;
  let t: TestPage;
  /** Management writes the page sent, in order. */
  let writes: Request[];
  withMockPage((s) => (server = s), (p) => (t = p));
  beforeEach(() => {
    writes = [];
    t.page.on('request', (request) => {
      if (request.method() === 'PUT' && new URL(request.url()).pathname.startsWith('/api/')) writes.push(request);
    });
  });

  it('sends path, methods, template and two responses in the order they were moved to', async () => {
    await t.page.goto(`${server.url}/static/#new`);
    await t.page.fill('#name', 'user');
    await t.page.fill('#path', 'users/:id');
    await t.page.check('#method-get');
    await t.page.check('#method-put');
    await t.page.check('#template');
    await replaceJson(t.page, '{"id": "{{params.id}}"}');
    await t.page.click('#add-response');
    await t.page.click('#add-response');
    const [first, second] = [t.page.locator('#responses > li').nth(0), t.page.locator('#responses > li').nth(1)];
    // One open at a time: the one added last is; opening the first closes it.
    expect(await second.locator('.response-body').isVisible()).to.equal(true);
    await first.locator('.response-toggle').click();
    expect(await second.locator('.response-body').isVisible()).to.equal(false);
    await fieldset(first, 'Method').getByLabel('PUT').check();
    await first.getByLabel('Status', { exact: true }).selectOption('204');
    await second.locator('.response-toggle').click();
    expect(await first.locator('.response-body').isVisible()).to.equal(false);
    await addPair(second, 'Query', 'role', 'admin');
    await addPair(second, 'Query', 'role', 'owner');
    await second.getByLabel('Answer', { exact: true }).selectOption('data');
    await second.getByLabel('Answer text').fill('{"admin": true}');
    await second.getByRole('button', { name: 'Move #2 up' }).click();
    // The moved card is first now: its up button is off, so the focus went to its down button.
    expect(await t.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Move #1 down');
    // Each closed response is one line saying when it answers and what.
    expect(await t.page.locator('#responses .response-toggle').allInnerTexts()).to.deep.equal([
      '#1 ?role=admin|owner → 200 JSON',
      '#2 PUT → 204',
    ]);
    await screenshot(t.page, 'mock-page-responses');
    const sent = t.page.waitForRequest((request) => request.method() === 'PUT');
    await t.page.click('#save');
    expect((await sent).postDataJSON()).to.deep.equal({
      name: 'user',
      path: 'users/:id',
      methods: ['GET', 'PUT'],
      statusCode: 200,
      delay: 0,
      data: { id: '{{params.id}}' },
      template: true,
      responses: [
        { when: { query: { role: ['admin', 'owner'] } }, data: { admin: true } },
        { when: { method: ['PUT'] }, statusCode: 204 },
      ],
    });
  });

  it('sends a plain endpoint as the plain record it was', async () => {
    await addEndpoint(server, { name: 'plain', data: [1], statusCode: 201, delay: 5 });
    await openEndpoint(t.page, server.url, 'plain');
    const sent = t.page.waitForRequest((request) => request.method() === 'PUT');
    await t.page.click('#save');
    expect((await sent).postDataJSON()).to.deep.equal({ name: 'plain', statusCode: 201, delay: 5, data: [1] });
    await t.page.locator('#saved', { hasText: 'Saved' }).waitFor();
  });

  it('shows bad JSON in a response at its field, focused, and sends nothing', async () => {
    await t.page.goto(`${server.url}/static/#new`);
    await t.page.fill('#name', 'bad-when');
    await t.page.click('#add-response');
    await t.page.click('#add-response');
    const body = t.page.locator('#responses > li').nth(1).getByLabel(/^Body contains/);
    await body.fill('{"type": }');
    await t.page.click('#save');
    const note = t.page.locator('[data-field="responses[1].when.body"] + .field-error');
    await note.waitFor();
    expect(await note.innerText()).to.equal(
      "responses[1].when.body: line 1, column 10: expected a value but found '}'",
    );
    expect(await body.getAttribute('aria-invalid')).to.equal('true');
    expect(await body.evaluate((element) => element === document.activeElement)).to.equal(true);
    expect(writes).to.deep.equal([]);
    expect(server.store.get('bad-when')).to.equal(undefined);
  });

  it("shows the server's 400 next to the field it names, and clears it on the next save", async () => {
    await t.page.goto(`${server.url}/static/#new`);
    await t.page.fill('#name', 'bad-header');
    await t.page.click('#add-header');
    await t.page.fill('#headers-slot .pair-name', 'Content-Length');
    await t.page.fill('#headers-slot .pair-value', '3');
    await t.page.click('#save');
    const note = t.page.locator('#headers-slot fieldset + .field-error');
    await note.waitFor();
    expect(await note.innerText()).to.equal("headers: 'Content-Length' is set by the server and cannot be given");
    expect(await t.page.getAttribute('#headers-slot fieldset', 'aria-invalid')).to.equal('true');
    // The first control of the fieldset takes the focus, so the user can fix it at once.
    expect(await t.page.evaluate(() => document.activeElement?.className)).to.equal('pair-name');
    expect(server.store.get('bad-header')).to.equal(undefined);
    await t.page.fill('#headers-slot .pair-name', 'X-Fine');
    await t.page.click('#save');
    await t.page.waitForURL(/#endpoint\/bad-header$/);
    expect(await t.page.locator('.field-error').count()).to.equal(0);
  });

  it('"Try it" sends the chosen method, query, headers and body', async () => {
    await addEndpoint(server, { name: 'echo', data: { ok: true } });
    await openEndpoint(t.page, server.url, 'echo');
    await t.page.selectOption('#try-method', 'PATCH');
    const panel = t.page.locator('#try-it');
    await addPair(panel, 'Query', 'role', 'admin');
    await addPair(panel, 'Query', 'q', 'a b&c');
    await addPair(panel, 'Request headers', 'X-Tenant', 'acme');
    await t.page.fill('#try-body', '{"a": 1}');
    expect(await t.page.locator('#try-url').innerText()).to.equal(
      `PATCH ${server.url}/endpoint/echo?role=admin&q=a+b%26c`,
    );
    await t.page.click('#try');
    await t.page.locator('#try-status', { hasText: '200 OK' }).waitFor();
    const res = await server.fetch('/api/endpoint/echo/requests');
    const [logged] = (await res.json()).requests;
    expect(logged).to.deep.include({ method: 'PATCH', url: '/endpoint/echo?role=admin&q=a+b%26c', body: '{"a": 1}' });
    expect(logged.headers).to.deep.include({ 'x-tenant': 'acme', 'content-type': 'application/json' });
  });

  it('shows the newest request open, and leaves one the user opened open', async () => {
    await addEndpoint(server, { name: 'inspect', data: 1 });
    await openEndpoint(t.page, server.url, 'inspect');
    const call = (n: number) => server.fetch(`/endpoint/inspect?n=${n}`, { method: 'POST', body: `body ${n}` });
    const entry = (n: number) => t.page.locator('#requests details', { hasText: `?n=${n}` });
    const open = () => t.page.locator('#requests details[open] .url').allInnerTexts();
    await call(1);
    await entry(1).waitFor();
    expect(await open()).to.deep.equal(['/endpoint/inspect?n=1']);
    expect(await entry(1).locator('pre').innerText()).to.equal('body 1');
    await call(2);
    await entry(2).waitFor();
    expect(await open()).to.deep.equal(['/endpoint/inspect?n=2']);
    await entry(1).locator('summary').click();
    await call(3);
    await entry(3).waitFor();
    expect(await open()).to.deep.equal(['/endpoint/inspect?n=3', '/endpoint/inspect?n=1']);
    expect(await entry(3).locator('pre').isVisible()).to.equal(true);
  });

  it('says in each log entry which answer it got: a response, the default, or a fault', async () => {
    await server.store.put({
      name: 'answered',
      statusCode: 200,
      delay: 0,
      json: '1',
      responses: [
        { when: { query: { v: 'created' } }, statusCode: 201 },
        { when: { query: { v: 'reset' } }, fault: 'reset' },
      ],
    });
    await openEndpoint(t.page, server.url, 'answered');
    await server.fetch('/endpoint/answered?v=created');
    await server.fetch('/endpoint/answered');
    await server.fetch('/endpoint/answered?v=reset').catch(() => undefined);
    await t.page.locator('#requests li').nth(2).waitFor();
    expect(await t.page.locator('#requests .answer').allInnerTexts()).to.deep.equal([
      '#2 → fault: reset',
      'default → 200',
      '#1 → 201',
    ]);
  });
});
