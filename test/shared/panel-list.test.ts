import { expect } from 'chai';
import { editorPanesFromQuery, panesFromQuery, panesQuery } from '../../src/shared/panel-list.js';

// JS Bin's panel lists (`/abc/edit?html,js,output`), read by the server and by the editor.
describe('panel lists in a query string', () => {
  const cases: [string, string[] | undefined][] = [
    ['?html,js,output', ['html', 'javascript', 'output']],
    ['?output,css', ['css', 'output']],
    ['?js,console', ['javascript', 'console']],
    ['?HTML,Live', ['html', 'output']],
    ['?html&js', ['html', 'javascript']],
    ['?javascript,html,html', ['html', 'javascript']],
    ['?html,js&api_key=secret', ['html', 'javascript']],
    ['?api_key=html', undefined],
    ['?quiet', undefined],
    ['?__proto__,constructor', undefined],
    ['', undefined],
  ];
  for (const [search, panes] of cases) {
    it(`reads ${JSON.stringify(search)} as ${JSON.stringify(panes)}`, () => {
      expect(panesFromQuery(search)).to.deep.equal(panes);
    });
  }

  it('keeps the order the query names them in when asked, each pane once', () => {
    expect(panesFromQuery('?output,js,HTML,javascript', { order: 'query' })).to.deep.equal(['output', 'javascript', 'html']);
    expect(panesFromQuery('?css&live,js', { order: 'query' })).to.deep.equal(['css', 'output', 'javascript']);
    expect(panesFromQuery('?api_key=js', { order: 'query' })).to.equal(undefined);
  });

  it('writes panes in pane order under the names JS Bin used', () => {
    expect(panesQuery(['output', 'javascript', 'html'])).to.equal('html,js,output');
    expect(panesQuery(['console', 'css'])).to.equal('css,console');
  });

  it('lets editor links name the Mocks pane, which the embed page\'s panes leave out', () => {
    expect(editorPanesFromQuery('?js,MOCKS,output')).to.deep.equal(['javascript', 'output', 'mocks']);
    expect(editorPanesFromQuery('?mocks')).to.deep.equal(['mocks']);
    expect(panesFromQuery('?js,mocks,output')).to.deep.equal(['javascript', 'output']);
    expect(panesFromQuery('?mocks,js', { order: 'query' })).to.deep.equal(['javascript']);
    expect(panesFromQuery('?mocks')).to.equal(undefined);
    expect(panesQuery(['mocks', 'javascript', 'output'])).to.equal('js,output,mocks');
  });
});
