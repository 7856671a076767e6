import { expect } from 'chai';
import { NO_CONTENT } from '../../src/bins/api/save-input.js';
import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { rawRequest } from '../helpers/raw-http.js';
import { startMockServer, type TestMockServer } from '../mocks/server.js';

/** How a JSON body can be empty or broken; each is sent as raw bytes, so fetch adds no Content-Length. */
const BODIES: [string, string | undefined][] = [
  ['no body and no Content-Length', undefined],
  ['Content-Length: 0', ''],
  ['only whitespace', ' \r\n\t '],
  ['malformed JSON', '{"a":'],
];

function request(method: string, path: string, body: string | undefined): string {
  const length = body === undefined ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  const type = 'Content-Type: application/json\r\n';
  return `${method} ${path} HTTP/1.1\r\nHost: x\r\n${type}${length}Connection: close\r\n\r\n${body ?? ''}`;
}

describe('JSON request bodies: one rule for empty and malformed, each server in its own words', () => {
  let bins: TestBinServer;
  let mocks: TestMockServer;
  before(async () => {
    bins = await startBinServer(OPEN);
    mocks = await startMockServer();
  });
  after(async () => {
    await bins.close();
    await mocks.close();
  });

  type Caller = [string, () => string, string, string, (message: string) => unknown, string];
  const callers: Caller[] = [
    ['a bin save', () => bins.url, 'POST', '/api/save', (error) => ({ error }), NO_CONTENT],
    ['a compile', () => bins.url, 'POST', '/api/compile', (error) => ({ error }), 'the body must be a JSON object'],
    [
      'a mock add',
      () => mocks.url,
      'PUT',
      '/api/endpoint/add',
      (message) => ({ success: false, message }),
      'the request has no body; send a JSON object',
    ],
  ];
  for (const [caller, url, method, path, shape, emptyMessage] of callers) {
    for (const [what, body] of BODIES) {
      const message = body === '{"a":' ? 'malformed JSON body' : emptyMessage;
      it(`answers ${caller} with ${what}: 400, ${message}`, async () => {
        const answer = await rawRequest(url(), request(method, path, body));
        expect(answer.status).to.equal(400);
        expect(JSON.parse(answer.body)).to.deep.equal(shape(message));
      });
    }
  }

  it('stores nothing for any of them', async () => {
    expect(await (await bins.fetch('/api')).json()).to.deep.equal([]);
    expect((await (await mocks.fetch('/api/endpoints')).json()).endpoints).to.deep.equal([]);
  });
});
