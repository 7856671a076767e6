import { expect } from 'chai';
import type { TestBinServer } from '../helpers/bin-server.js';
import type { TestPage } from './browser.js';
import { pathOf, replaceCode, withEditor } from './editor-page.js';

describe('Clone in the editor, in Chromium', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  it('saves what is on screen as revision 1 of a new bin and goes on editing that one', async () => {
    const settings = JSON.stringify({ processors: { css: 'less' } });
    const original = (await (await server.postForm('/api/save', { html: '<p>original</p>', css: '@c: red;', settings })).json()).url;
    await t.page.goto(`${server.url}/${original}/1/edit`);
    await replaceCode(t.page, 'html', '<p>changed before cloning</p>');
    await t.page.click('#clone');
    await t.page.waitForURL((url) => /^\/\w+\/1\/edit$/.test(url.pathname) && !url.pathname.startsWith(`/${original}/`));
    const clone = pathOf(t.page).split('/')[1]!;
    expect(await t.page.locator('#status').innerText()).to.equal(`Cloned into ${clone}, revision 1.`);
    const copy = await server.store.get(clone, 1);
    expect(copy).to.include({ html: '<p>changed before cloning</p>', css: '@c: red;' });
    expect(copy?.settings).to.deep.equal({ processors: { html: 'html', css: 'less', javascript: 'javascript' } });
    // The bin it came from is as it was.
    expect((await server.store.revisions(original)).length).to.equal(1);
    expect((await server.store.get(original))?.html).to.equal('<p>original</p>');
    expect(t.errors).to.deep.equal([]);
  });
});
