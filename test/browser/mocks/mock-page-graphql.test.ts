import { expect } from 'chai';
import type { TestMockServer } from '../../mocks/server.js';
import { screenshot, type TestPage } from '../browser.js';
import { openEndpoint, withMockPage } from './mock-page-fixtures.js';

describe('the mock page: GraphQL endpoints', function () {
  this.timeout(30_000);
  let server: TestMockServer;
  let t: TestPage;
  withMockPage((s) => (server = s), (p) => (t = p));

  it('saves a schema from the SDL box, putting the cursor where the server says it goes wrong', async () => {
    await t.page.goto(`${server.url}/static/#new`);
    await t.page.fill('#name', 'api');
    await t.page.selectOption('#endpoint-kind', 'graphql');
    expect(await t.page.isHidden('#responses-section')).to.equal(true);
    // Only what a GraphQL endpoint takes is shown: REST's methods, faults, headers and answer are not.
    for (const rest of ['#methods-slot', '#fault-field', '#headers-slot', '#payload-kind', '#callbacks']) {
      expect(await t.page.isHidden(rest), rest).to.equal(true);
    }
    expect(await t.page.isVisible('#status-slot')).to.equal(true);
    const broken = 'type Query {\n  me: User\n}\ntype User { id: ID! name: Strin }';
    await t.page.fill('#schema', broken);
    await t.page.click('#save');
    await t.page.locator('#form-error', { hasText: 'Unknown type "Strin"' }).waitFor();
    expect(await t.page.getAttribute('#schema', 'aria-invalid')).to.equal('true');
    // Line 4, column 27: where graphql says the unknown type is written.
    const at = await t.page.$eval('#schema', (box: HTMLTextAreaElement) => [box.selectionStart, document.activeElement === box]);
    expect(at).to.deep.equal([broken.indexOf('Strin'), true]);
    expect(server.store.get('api')).to.equal(undefined);

    await t.page.fill('#schema', broken.replace('Strin', 'String'));
    await t.page.fill('#graphql-mocks', '{ "User.name": "Ada" }');
    await t.page.click('#save');
    await t.page.waitForURL(/#endpoint\/api$/);
    expect(server.store.get('api')!.record).to.deep.include({ kind: 'graphql', mocks: { 'User.name': 'Ada' } });
  });

  it('shows a GraphQL endpoint in the form and its requests by operation name', async () => {
    await server.putJson('/api/endpoint/shop', { kind: 'graphql', schema: 'type Query { hello: String }', mocks: { 'Query.hello': 'hi' } });
    await openEndpoint(t.page, server.url, 'shop');
    expect(await t.page.inputValue('#endpoint-kind')).to.equal('graphql');
    expect(await t.page.inputValue('#schema')).to.equal('type Query { hello: String }');
    await server.fetch('/endpoint/shop', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": "query Hello { hello }"}' });
    const entry = t.page.locator('#requests li', { hasText: 'Hello' });
    await entry.waitFor();
    expect(await entry.locator('.operation').innerText()).to.equal('Hello');
    await screenshot(t.page, 'mock-page-graphql');
  });
});
