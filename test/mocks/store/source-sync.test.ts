import { expect } from 'chai';
import { join } from 'node:path';
import { recordFileParser } from '../../../src/mocks/sources/record-file-parser.js';
import { createSourceLoader } from '../../../src/mocks/sources/loader.js';
import { openMockStore } from '../../../src/mocks/store/open-store.js';
import type { MockStore } from '../../../src/mocks/store/store.js';
import { tempDir } from '../../helpers/temp.js';

// The loader and the store as serve-mocks --dir and --openapi use them, over a real data file.
describe('endpoints from files: one file synced at a time, all or nothing', () => {
  let temp: ReturnType<typeof tempDir>;
  let store: MockStore;
  const loader = () => createSourceLoader({ maxDelay: 1000 });
  beforeEach(async () => {
    temp = tempDir();
    store = await openMockStore(join(temp.dir, 'data.sqlite'), { maxEndpoints: 3 });
  });
  afterEach(async () => {
    await store.close();
    temp.cleanup();
  });

  const names = () => store.list().map((endpoint) => `${endpoint.record.name}<${endpoint.source ?? 'api'}`);

  it('refuses a file whose route overlaps another file\'s, keeping both files as they were', async () => {
    const files = loader();
    await files.apply(store, 'a.yaml', 'path: users/:id\ndata: 1\n', recordFileParser('a'));
    const problem = await files.apply(store, 'b.yaml', 'path: users/:uid\ndata: 2\n', recordFileParser('b'));
    expect(problem).to.deep.equal({
      source: 'file:b.yaml',
      file: 'b.yaml',
      message: "path 'users/:uid' overlaps endpoint 'a' (file:a.yaml): same route shape",
      line: 1,
      column: 7,
      field: 'path',
    });
    expect(names()).to.deep.equal(['a<file:a.yaml']);
  });

  it('refuses a name given twice in one file, and a list past --max-endpoints', async () => {
    const files = loader();
    const twice = '[{"name":"x","data":1},{"name":"x","data":2}]';
    expect(await files.apply(store, 'two.json', twice, recordFileParser('two'))).to.include({
      message: "name 'x' is given twice in this file",
      line: 1,
      column: 32,
      index: 1,
    });
    const four = JSON.stringify(['p', 'q', 'r', 's'].map((name) => ({ name, data: 1 })));
    expect(await files.apply(store, 'four.json', four, recordFileParser('four'))).to.include({
      message: 'no room for these endpoints: at most 3 (--max-endpoints)',
    });
    expect(names()).to.deep.equal([]);
  });

  it('replaces a file\'s endpoints as a whole: a renamed record goes, its neighbour stays', async () => {
    const files = loader();
    await files.apply(store, 'f.json', '[{"name":"one","data":1},{"name":"two","data":2}]', recordFileParser('f'));
    const change = await files.apply(store, 'f.json', '[{"name":"one","data":1},{"name":"three","data":3}]',
      recordFileParser('f'));
    expect(change).to.deep.equal({ added: ['three'], changed: [], removed: ['two'] });
    expect(await files.apply(store, 'f.json', undefined, recordFileParser('f'))).to.deep.equal({
      added: [],
      changed: [],
      removed: ['one', 'three'],
    });
    expect(names()).to.deep.equal([]);
  });

  it('says a file holding neither a record nor a list is refused at its start', async () => {
    const problem = await loader().apply(store, 'empty.yaml', '', recordFileParser('empty'));
    expect(problem).to.include({
      message: 'the file must hold one endpoint record (an object) or a list of them',
      line: 1,
      column: 1,
    });
  });
});
