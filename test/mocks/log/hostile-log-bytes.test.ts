import { expect } from 'chai';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

// 64 KiB bodies to each of many endpoints would otherwise fill memory and the data file, --log-size entries each.
describe('hostile: the request logs hold a bounded number of bytes in all (--max-log-bytes)', () => {
  // Room for three 64 KiB requests, not four.
  const maxLogBytes = 210 * 1024;
  let server: TestMockServer;
  let temp: ReturnType<typeof tempDir>;
  let file: string;
  beforeEach(async () => {
    temp = tempDir();
    file = join(temp.dir, 'mocks.sqlite');
    server = await startMockServer({ file, store: { maxLogBytes } });
    await addEndpoint(server, { name: 'a', data: 1 });
    await addEndpoint(server, { name: 'b', data: 1 });
  });
  afterEach(async () => {
    await server.close();
    temp.cleanup();
  });

  const post = async (name: string, n: number) => {
    const res = await server.fetch(`/endpoint/${name}?n=${n}`, { method: 'POST', body: 'x'.repeat(64 * 1024) });
    expect(res.status).to.equal(200);
  };
  const urls = async (target: TestMockServer, name: string): Promise<string[]> => {
    const { requests } = await (await target.fetch(`/api/endpoint/${name}/requests`)).json();
    return requests.map((entry: { url: string }) => entry.url);
  };

  it('drops the oldest entries of any endpoint first, keeping the newest', async () => {
    for (const n of [1, 2, 3]) await post('a', n);
    for (const n of [4, 5]) await post('b', n);
    expect(await urls(server, 'a')).to.deep.equal(['/endpoint/a?n=3']);
    expect(await urls(server, 'b')).to.deep.equal(['/endpoint/b?n=5', '/endpoint/b?n=4']);
  });

  it('drops them from the data file too, so a restart with more room does not bring them back', async () => {
    for (const n of [1, 2, 3, 4]) await post('a', n);
    // Closing saves what is pending.
    await server.close();
    server = await startMockServer({ file, store: { maxLogBytes: 10 * maxLogBytes } });
    expect(await urls(server, 'a')).to.deep.equal(['/endpoint/a?n=4', '/endpoint/a?n=3', '/endpoint/a?n=2']);
  });

  it('gives a cleared log\'s bytes back', async () => {
    for (const n of [1, 2, 3]) await post('a', n);
    await server.fetch('/api/endpoint/a/requests', { method: 'DELETE' });
    for (const n of [4, 5, 6]) await post('b', n);
    expect(await urls(server, 'b')).to.have.length(3);
  });
});
