import { expect } from 'chai';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeRecordFile } from '../../../src/cli/serve-mocks/record-file.js';
import { parseMockInput } from '../../../src/mocks/record/validate.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';
import { startMockServer } from '../../mocks/server.js';
import { startUpstream } from '../../mocks/proxy/upstream.js';

describe('recordings written as record files (for --dir)', () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => (temp = tempDir()));
  afterEach(() => temp.cleanup());

  it('writes <name>.json in the export layout, which validates as that endpoint', async () => {
    const dir = join(temp.dir, 'mocks', 'recorded');
    const upstream = await startUpstream();
    const proxy = {
      target: upstream.url,
      timeoutMs: 30_000,
      maxConnections: 10,
      record: true,
      recordCookies: false,
      maxRecordBytes: 1e6,
      save: (shape: Parameters<typeof writeRecordFile>[1]) => writeRecordFile(dir, shape, 1e6),
    };
    const server = await startMockServer({ config: { proxy } });
    try {
      await server.fetch('/endpoint/users/1?full=yes');
      await until(() => server.logs.some((line) => line.startsWith('recorded GET /endpoint/users/1')));
      expect(readdirSync(dir)).to.deep.equal(['get-users-1.json']);
      const text = readFileSync(join(dir, 'get-users-1.json'), 'utf8');
      const record = JSON.parse(text) as Record<string, unknown>;
      expect(record).to.not.have.property('name');
      expect(record.path).to.equal('users/1');
      expect(record.responses).to.deep.equal([
        {
          when: { query: { full: 'yes' } },
          statusCode: 200,
          data: { method: 'GET', url: '/users/1?full=yes' },
          headers: { 'content-type': 'application/json' },
        },
      ]);
      expect(parseMockInput({ name: 'get-users-1', ...record }, { maxDelay: 0 }).methods).to.deep.equal(['GET']);
      // The file is the record: the store is left to the folder's loader.
      expect(server.store.list()).to.have.length(0);
    } finally {
      await server.close();
      await upstream.close();
    }
  });

  it('replaces a file whole and leaves no temp file behind', async () => {
    await writeRecordFile(temp.dir, { name: 'a', statusCode: 200, data: 1 }, 1e6);
    await writeRecordFile(temp.dir, { name: 'a', statusCode: 201, body: 'x' }, 1e6);
    expect(readdirSync(temp.dir)).to.deep.equal(['a.json']);
    expect(readFileSync(join(temp.dir, 'a.json'), 'utf8')).to.equal('{\n  "statusCode": 201,\n  "body": "x"\n}\n');
  });

  it('names the file and the reason when the folder cannot be written', async () => {
    const file = join(temp.dir, 'plain-file');
    writeFileSync(file, '');
    const failed = await writeRecordFile(join(file, 'sub'), { name: 'a', data: 1 }, 1e6).catch((err: Error) => err);
    expect(String(failed)).to.include(`cannot write ${join(file, 'sub', 'a.json')}`);
  });

  it('writes no file the folder would refuse to read: past --max-body, or through a link leading out', async () => {
    const big = await writeRecordFile(temp.dir, { name: 'big', data: 'x'.repeat(100) }, 64).catch((err: Error) => err);
    expect(String(big)).to.include(`not written to ${join(temp.dir, 'big.json')}: it would have 117 bytes; at most 64`);
    const mocks = join(temp.dir, 'mocks');
    const outside = join(temp.dir, 'outside');
    mkdirSync(mocks);
    mkdirSync(outside);
    symlinkSync(outside, join(mocks, 'users'));
    for (const name of ['users/list', 'users/new/list']) {
      const failed = await writeRecordFile(mocks, { name, data: 1 }, 1e6).catch((err: Error) => err);
      expect(String(failed)).to.include(`cannot write ${join(mocks, name)}.json: it leads outside ${mocks} through a link`);
    }
    expect(readdirSync(outside)).to.deep.equal([]);
    expect(existsSync(join(temp.dir, 'big.json'))).to.equal(false);
  });

  it('writes a name with folders beside the file, making the folders inside', async () => {
    expect(await writeRecordFile(temp.dir, { name: 'users/list', data: 1 }, 1e6)).to.equal(join(temp.dir, 'users/list.json'));
    expect(readdirSync(join(temp.dir, 'users'))).to.deep.equal(['list.json']);
  });
});
