import { expect } from 'chai';
import { addEndpoint, startMockServer, type TestMockServer } from '../../mocks/server.js';
import { usePage } from '../browser.js';
import { openEndpoint, replaceJson } from './mock-page-fixtures.js';

describe('the mock page makes collections', function () {
  this.timeout(30_000);
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
  });
  after(() => server.close());
  const t = usePage();

  it('saves a collection whose items then answer json-server routes', async () => {
    await t.page.goto(`${server.url}/static/#new`);
    await t.page.fill('#name', 'posts');
    await replaceJson(t.page, '[{"id": 1, "title": "first"}]');
    await t.page.check('#collection');
    const answered = t.page.waitForResponse((response) => response.request().method() === 'PUT');
    await t.page.click('#save');
    const saved = await answered;
    expect(saved.status()).to.equal(201);
    expect(await saved.json()).to.deep.include({ collection: true });
    const res = await server.fetch('/endpoint/posts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title": "second"}',
    });
    expect(await res.json()).to.deep.equal({ title: 'second', id: 2 });
  });

  it('shows a collection as one, and its refusal at the field', async () => {
    await addEndpoint(server, { name: 'people', data: [{ id: 1 }], collection: true });
    await openEndpoint(t.page, server.url, 'people');
    expect(await t.page.isChecked('#collection')).to.equal(true);
    // Items without ids are served (json-server 0.17 does); an id given twice is not.
    await replaceJson(t.page, '[{"id": 1}, {"id": 1}]');
    await t.page.click('#save');
    await t.page.locator('#form-error', { hasText: 'data[1].id 1 is there twice' }).waitFor();
  });
});
