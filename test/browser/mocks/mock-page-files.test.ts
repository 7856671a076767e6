import { expect } from 'chai';
import { recordFileParser } from '../../../src/mocks/sources/record-file-parser.js';
import { createSourceLoader } from '../../../src/mocks/sources/loader.js';
import { startMockServer, type TestMockServer } from '../../mocks/server.js';
import { screenshot, usePage } from '../browser.js';

// The page reads what a watched folder loads through the same loader serve-mocks --dir uses.
describe('the mock page with endpoints from files', function () {
  this.timeout(30_000);
  const loader = createSourceLoader({ maxDelay: 60_000 });
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({ sources: loader });
    await loader.apply(server.store, 'mocks/users/list.yaml', 'data: []\n', recordFileParser('users/list'));
    await loader.apply(server.store, 'mocks/bad.yaml', 'statusCode: 999\ndata: 1\n', recordFileParser('bad'));
  });
  after(() => server.close());
  const t = usePage();

  it('marks a file endpoint in the list and shows the files that were not applied', async () => {
    await t.page.goto(`${server.url}/`);
    const row = t.page.locator('#endpoints tbody tr', { hasText: 'users/list' });
    await row.waitFor();
    expect(await row.locator('.badge').innerText()).to.equal('file mocks/users/list.yaml');
    const problems = t.page.locator('#source-errors li');
    await problems.first().waitFor();
    expect(await problems.allInnerTexts()).to.deep.equal([
      'mocks/bad.yaml:1:13: statusCode must be an integer from 200 to 599 (field statusCode)',
    ]);
    await screenshot(t.page, 'mock-page-files');
  });

  it('opens a file endpoint with Save and Delete disabled, saying which file to change', async () => {
    await t.page.goto(`${server.url}/#endpoint/${encodeURIComponent('users/list')}`);
    const note = t.page.locator('#source-note');
    await note.waitFor();
    expect(await note.innerText()).to.equal('From mocks/users/list.yaml: change or delete it in that file.');
    expect(await t.page.locator('#save').isDisabled()).to.equal(true);
    expect(await t.page.locator('#delete').isDisabled()).to.equal(true);
    expect(await t.page.locator('#delete').getAttribute('title')).to.include('mocks/users/list.yaml');
  });
});
