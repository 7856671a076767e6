import { expect } from 'chai';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFileSource, type FileSource } from '../../../src/mocks/sources/file.js';
import { createSourceLoader, type SourceParser } from '../../../src/mocks/sources/loader.js';
import { openMockStore, type MockStore } from '../../../src/mocks/store/store.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';

// One watched file whose parser makes the records (what serve-mocks --openapi wires to its converter).
describe('a watched file of records (createFileSource)', () => {
  let temp: ReturnType<typeof tempDir>;
  let store: MockStore;
  let source: FileSource;
  const printed: string[] = [];
  // One endpoint per line: `<name> <data>`.
  const parse: SourceParser = (_file, text) => ({
    records: text.trim().split('\n').filter(Boolean).map((line) => {
      const [name, data] = line.split(' ');
      return { name, data };
    }),
  });

  beforeEach(async () => {
    temp = tempDir();
    const file = join(temp.dir, 'api.txt');
    writeFileSync(file, 'a 1\nb 2\n');
    const loader = createSourceLoader({ maxDelay: 1000 });
    const print = (line: string) => printed.push(line);
    source = createFileSource({ file, loader, parse, print, warn: print });
    store = await openMockStore(join(temp.dir, 'data.sqlite'), { preload: source.load });
    source.watch();
  });
  afterEach(async () => {
    source.close();
    await store.close();
    temp.cleanup();
  });

  const data = (name: string) => store.get(name)?.record.json;

  it('loads at open, follows a save-by-rename, and removes the endpoints with the file', async () => {
    expect([data('a'), data('b')]).to.deep.equal(['"1"', '"2"']);
    expect(store.get('a')?.source).to.equal(`file:${join(temp.dir, 'api.txt')}`);
    writeFileSync(join(temp.dir, 'api.txt.tmp'), 'a 10\nc 3\n');
    renameSync(join(temp.dir, 'api.txt.tmp'), join(temp.dir, 'api.txt'));
    await until(() => data('c') === '"3"');
    expect([data('a'), data('b')]).to.deep.equal(['"10"', undefined]);
    rmSync(join(temp.dir, 'api.txt'));
    await until(() => printed.includes(`- c (${join(temp.dir, 'api.txt')})`));
    expect(store.list()).to.deep.equal([]);
  });
});
