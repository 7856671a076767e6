import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFileSource, type FileSource } from '../../../src/mocks/sources/file.js';
import { createSourceLoader, type SourceLoader, type SourceParser } from '../../../src/mocks/sources/loader.js';
import { MAX_SOURCE_FILE_BYTES } from '../../../src/mocks/sources/read-source.js';
import { openMockStore } from '../../../src/mocks/store/open-store.js';
import type { MockStore } from '../../../src/mocks/store/store.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';

// One watched file whose parser makes the records (what serve-mocks --openapi wires to its converter).
describe('a watched file of records (createFileSource)', () => {
  let temp: ReturnType<typeof tempDir>;
  let store: MockStore;
  let source: FileSource;
  let loader: SourceLoader;
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
    loader = createSourceLoader({ maxDelay: 1000 });
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

  it('reads through the Files gate: a FIFO or a file past the cap is a problem, unread, and the endpoints stay', async () => {
    const file = join(temp.dir, 'api.txt');
    const swapIn = (make: (path: string) => void) => {
      const next = join(temp.dir, 'next');
      make(next);
      renameSync(next, file);
    };
    swapIn((path) => execFileSync('mkfifo', [path]));
    await until(() => loader.problems().length === 1);
    expect(loader.problems()[0]).to.deep.include({ file, message: 'not a regular file' });
    swapIn((path) => {
      writeFileSync(path, '');
      truncateSync(path, MAX_SOURCE_FILE_BYTES + 1);
    });
    const tooBig = `the file has ${MAX_SOURCE_FILE_BYTES + 1} bytes; at most ${MAX_SOURCE_FILE_BYTES} are read`;
    await until(() => loader.problems()[0]?.message === tooBig);
    expect([data('a'), data('b')]).to.deep.equal(['"1"', '"2"']);
    expect(printed).to.include(`! ${file}: ${tooBig}`);
  });
});
