import { expect } from 'chai';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.js';
import { openSse } from '../../helpers/sse.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

// A bin's page names itself on its calls to /endpoint/… (X-Snippetkit-Bin: fumugi/3, src/shared/bin-claim.ts):
// the log entry says `bin`, the answer is what it would be without the header, and anything that is not
// exactly a bin id and a revision is no claim at all.
describe('X-Snippetkit-Bin: the bin that made a call', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'crew', data: [{ id: 1, name: 'Ada' }] });
    await addEndpoint(server, { name: 'greet', template: true, data: { hello: '{{query.who}}' } });
  });
  afterEach(() => server.close());

  const log = async (name = 'crew') =>
    ((await (await server.fetch(`/api/endpoint/${name}/requests`)).json()) as { requests: Record<string, unknown>[] }).requests;
  /** Status, headers but Date, and body: what a caller can tell of an answer. */
  const answer = async (path: string, headers: Record<string, string> = {}) => {
    const res = await server.fetch(path, { headers });
    const shown = [...res.headers].filter(([name]) => name !== 'date');
    return { status: res.status, headers: shown, body: await res.text() };
  };

  it('names the bin in the endpoint’s log entry', async () => {
    await server.fetch('/endpoint/crew', { headers: { 'X-Snippetkit-Bin': 'fumugi/3' } });
    await server.fetch('/endpoint/crew');
    const [plain, named] = await log();
    expect(named).to.include({ bin: 'fumugi/3', url: '/endpoint/crew' });
    expect(plain).not.to.have.property('bin');
  });

  it('takes every bin id and revision the bin server makes: letters, digits, - and _, up to 64, revisions from 1', async () => {
    const claims = ['a/1', 'x_y-z9/12', `${'b'.repeat(64)}/999999999`];
    for (const claim of claims) await server.fetch('/endpoint/crew', { headers: { 'X-Snippetkit-Bin': claim } });
    expect((await log()).map((entry) => entry.bin)).to.deep.equal([...claims].reverse());
  });

  it('changes no answer: a plain one and a templated one are the same byte for byte with the header or without', async () => {
    for (const path of ['/endpoint/crew', '/endpoint/greet?who=bin']) {
      const without = await answer(path);
      expect(await answer(path, { 'X-Snippetkit-Bin': 'fumugi/3' })).to.deep.equal(without);
      expect(await answer(path, { 'X-Snippetkit-Bin': 'x'.repeat(5000) })).to.deep.equal(without);
    }
  });

  // Each is answered as without the header and logged without `bin`; the header itself stays in the
  // entry's headers, as every header does.
  const hostile: [string, string][] = [
    ['an id over 64 characters', `${'b'.repeat(65)}/1`],
    ['a revision over 9 digits', 'fumugi/1234567890'],
    ['8 KiB of text', 'f'.repeat(8 * 1024)],
    ['no revision', 'fumugi'],
    ['revision 0', 'fumugi/0'],
    ['a revision with a leading zero', 'fumugi/03'],
    ['latest, which names no revision', 'fumugi/latest'],
    ['upper case (ids are stored lower case)', 'Fumugi/3'],
    ['a path', '../../api/1'],
    ['a third part', 'fumugi/3/edit'],
    ['markup', '<img src=x onerror=alert(1)>/1'],
    ['a query', 'fumugi/3?x=1'],
    ['two claims (a repeated header is joined with a comma)', 'fumugi/3, rovoqe/1'],
    ['an empty value', ''],
  ];
  for (const [what, value] of hostile) {
    it(`takes no claim from ${what}`, async () => {
      const without = await answer('/endpoint/crew');
      expect(await answer('/endpoint/crew', { 'X-Snippetkit-Bin': value })).to.deep.equal(without);
      const [entry] = await log();
      expect(entry).not.to.have.property('bin');
    });
  }

  it('takes no claim with a tab or bytes past ASCII in it, which node lets through', async () => {
    for (const value of ['fumu\tgi/3', 'fumugi/3\té', 'fum\xe9gi/3']) {
      const raw = Buffer.from(
        `GET /endpoint/crew HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Snippetkit-Bin: ${value}\r\n\r\n`,
        'latin1',
      );
      const res = await rawRequest(server.url, raw);
      expect(res.status).to.equal(200);
      expect(JSON.parse(res.body)).to.deep.equal([{ id: 1, name: 'Ada' }]);
    }
    const entries = await log();
    expect(entries).to.have.length(3);
    for (const entry of entries) expect(entry).not.to.have.property('bin');
  });

  it('logs nothing of a request with other control characters: node refuses it before any endpoint sees it', async () => {
    for (const control of ['\x00', '\x01', '\x1b', '\x7f']) {
      const raw = `GET /endpoint/crew HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Snippetkit-Bin: fumu${control}gi/3\r\n\r\n`;
      expect((await rawRequest(server.url, raw)).status).to.equal(400);
    }
    expect(await log()).to.deep.equal([]);
  });

  it('sends the bin in the live log’s request event', async () => {
    const stream = await openSse(`${server.url}/api/endpoint/crew/events`);
    try {
      await stream.next('log');
      await server.fetch('/endpoint/crew', { method: 'POST', headers: { 'X-Snippetkit-Bin': 'rovoqe/1' }, body: '{}' });
      expect(JSON.parse((await stream.next('request')).data)).to.include({ bin: 'rovoqe/1', method: 'POST' });
    } finally {
      stream.close();
    }
  });

  it('names the bin of a request no endpoint answered in the unmatched log', async () => {
    await server.fetch('/endpoint/nobody', { headers: { 'X-Snippetkit-Bin': 'fumugi/3' } });
    await server.fetch('/endpoint/nobody', { headers: { 'X-Snippetkit-Bin': 'fumugi/x' } });
    const { requests } = await (await server.fetch('/api/unmatched')).json();
    expect(requests.map((r: { bin?: string }) => r.bin)).to.deep.equal([undefined, 'fumugi/3']);
  });

  it('keeps the bin across a restart (it is saved with the entry)', async () => {
    const temp = tempDir();
    try {
      const file = join(temp.dir, 'mocks.sqlite');
      const first = await startMockServer({ file });
      await addEndpoint(first, { name: 'crew', data: [] });
      await first.fetch('/endpoint/crew', { headers: { 'X-Snippetkit-Bin': 'fumugi/3' } });
      await first.close();
      const second = await startMockServer({ file });
      try {
        const { requests } = await (await second.fetch('/api/endpoint/crew/requests')).json();
        expect(requests[0]).to.include({ bin: 'fumugi/3' });
      } finally {
        await second.close();
      }
    } finally {
      temp.cleanup();
    }
  });

  it('lets a page send the header: the preflight allows it, from a sandboxed page’s null origin', async () => {
    const res = await server.fetch('/endpoint/crew', {
      method: 'OPTIONS',
      headers: { Origin: 'null', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-snippetkit-bin' },
    });
    expect(res.status).to.equal(204);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).to.include('x-snippetkit-bin');
    expect(await log()).to.deep.equal([]);
  });
});
