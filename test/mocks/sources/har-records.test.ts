import { expect } from 'chai';
import { harRecords, HarError, isHar, MAX_HAR_ENTRIES } from '../../../src/mocks/sources/har-records.js';

type Answer = { status?: number; headers?: [string, string][]; text?: string; encoding?: string; size?: number };

/** One HAR entry: a GET by default, answering 200 with JSON. */
function entry(url: string, answer: Answer = {}, method = 'GET') {
  const headers = answer.headers ?? [['Content-Type', 'application/json']];
  return {
    request: { method, url, headers: [] },
    response: {
      status: answer.status ?? 200,
      headers: headers.map(([name, value]) => ({ name, value })),
      content: {
        size: answer.size ?? answer.text?.length ?? 0,
        ...(answer.text !== undefined && { text: answer.text }),
        ...(answer.encoding !== undefined && { encoding: answer.encoding }),
      },
    },
  };
}
const har = (...entries: unknown[]) => ({ log: { version: '1.2', entries } });
const convert = (value: unknown, host?: string, recordCookies = false) =>
  harRecords(value, { recordCookies, ...(host !== undefined && { host }) });

describe('HAR files as recordings (mocks/sources/har-records)', () => {
  it('makes one recording per method and path, JSON as data and text as body, marked with the origin', () => {
    const { records } = convert(
      har(
        entry('http://api.test/users/1', { text: '{"id":1}' }),
        entry('http://api.test/notes.txt', { headers: [['content-type', 'text/plain']], text: 'hi\n' }),
        entry('http://api.test/users/1', { status: 201, text: '{"id":2}' }, 'POST'),
      ),
    );
    expect(records.map((r) => [r.name, r.path, r.methods])).to.deep.equal([
      ['get-users-1', 'users/1', ['GET']],
      ['get-notes.txt', 'notes.txt', ['GET']],
      ['post-users-1', 'users/1', ['POST']],
    ]);
    expect(records[0]!.headers).to.deep.equal({ 'x-snippetkit-recorded': 'http://api.test' });
    expect(records[0]!.responses).to.deep.equal([
      { when: { query: {} }, statusCode: 200, data: { id: 1 }, headers: { 'content-type': 'application/json' } },
    ]);
    expect(records[1]!.responses).to.deep.include.members([
      { when: { query: {} }, statusCode: 200, body: 'hi\n', headers: { 'content-type': 'text/plain' } },
    ]);
  });

  it('keeps the most common host by default, counting the entries for other hosts', () => {
    const result = convert(
      har(entry('http://a.test/x'), entry('https://b.test:8443/y'), entry('https://b.test:8443/z'), entry('http://c.test/w')),
    );
    expect(result.host).to.equal('b.test:8443');
    expect(result.otherHosts).to.equal(2);
    expect(result.records.map((r) => r.name)).to.deep.equal(['get-y', 'get-z']);
    const chosen = convert(har(entry('http://a.test/x'), entry('http://b.test/y'), entry('http://b.test/z')), 'a.test');
    expect(chosen.records.map((r) => r.name)).to.deep.equal(['get-x']);
    expect(chosen.otherHosts).to.equal(2);
  });

  it('tells answers apart by query only when the query changes the answer', () => {
    const same = convert(har(entry('http://a.test/s?q=1', { text: '[]' }), entry('http://a.test/s?q=2', { text: '[]' })));
    expect(same.records[0]!.responses).to.have.length(1);
    expect((same.records[0]!.responses as { when: unknown }[])[0]!.when).to.deep.equal({ query: {} });
    const differ = convert(
      har(entry('http://a.test/s', { text: '[0]' }), entry('http://a.test/s?q=1&q=2&r=x', { text: '[1]' })),
    );
    const responses = differ.records[0]!.responses as { when: unknown; data: unknown }[];
    // The query-less answer last: first-match tries the most specific first.
    expect(responses.map((r) => [r.when, r.data])).to.deep.equal([
      [{ query: { q: ['1', '2'], r: 'x' } }, [1]],
      [{ query: {} }, [0]],
    ]);
  });

  it('keeps the last answer of a request made twice, counting it replaced only when it differs', () => {
    const result = convert(
      har(
        entry('http://a.test/n?k=1', { text: '1' }),
        entry('http://a.test/n?k=2', { text: '2' }),
        entry('http://a.test/n?k=1', { text: '3' }),
        entry('http://a.test/n?k=2', { text: '2' }),
      ),
    );
    expect(result.replaced).to.equal(1);
    const responses = result.records[0]!.responses as { when: unknown; data: unknown }[];
    expect(responses.map((r) => [r.when, r.data])).to.deep.equal([
      [{ query: { k: '1' } }, 3],
      [{ query: { k: '2' } }, 2],
    ]);
  });

  it('drops hop-by-hop, length, encoding, date and Set-Cookie headers, keeping cookies when asked', () => {
    const headers: [string, string][] = [
      ['Content-Type', 'text/plain'],
      ['Connection', 'keep-alive, x-conn'],
      ['X-Conn', '1'],
      ['Content-Length', '2'],
      ['Content-Encoding', 'gzip'],
      ['Date', 'now'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['ETag', '"e"'],
      [':status', '200'],
      ['__proto__', 'x'],
    ];
    const answer = (recordCookies: boolean) =>
      (convert(har(entry('http://a.test/c', { headers, text: 'ok' })), undefined, recordCookies).records[0]!
        .responses as { headers: unknown }[])[0]!.headers;
    const kept = { 'content-type': 'text/plain', etag: '"e"' };
    expect(answer(false)).to.deep.equal(kept);
    expect(answer(true)).to.deep.equal({ ...kept, 'set-cookie': 'a=1' });
  });

  it('decodes base64 bodies, keeping UTF-8 text exact and binary ones as base64Body, skipping the broken with the reason', () => {
    const text = '\uFEFFcafé ✓\r\n';
    const result = convert(
      har(
        entry('http://a.test/t', { headers: [['content-type', 'text/plain']], text: Buffer.from(text).toString('base64'), encoding: 'base64' }),
        entry('http://a.test/png', { headers: [['content-type', 'image/png']], text: 'iVBORw0KGgoAAAANSUhEUg==', encoding: 'base64' }),
        entry('http://a.test/bad', { text: '***', encoding: 'base64' }),
        entry('http://a.test/gone', { size: 10 }),
      ),
    );
    const [response] = result.records[0]!.responses as { body: string }[];
    expect(Buffer.from(response!.body)).to.deep.equal(Buffer.from(text));
    expect((result.records[1]!.responses as unknown[])[0]).to.include({ base64Body: 'iVBORw0KGgoAAAANSUhEUg==' });
    expect([...result.skipped]).to.deep.equal([
      ['its base64 body does not decode', 1],
      ['its body is not in the HAR', 1],
    ]);
  });

  it('keeps JSON that would not replay as written as text', () => {
    const bodies = ['{"id": 12345678901234567890}', '{"x":1.0}', '"\\u00e9"'];
    const result = convert(har(...bodies.map((text, i) => entry(`http://a.test/j${i}`, { text }))));
    for (const [i, record] of result.records.entries()) {
      expect((record.responses as unknown[])[0]).to.include({ body: bodies[i] });
    }
    const pretty = convert(har(entry('http://a.test/p', { text: '{\n  "a": [1, "b c"]\n}' })));
    expect((pretty.records[0]!.responses as unknown[])[0]).to.deep.include({ data: { a: [1, 'b c'] } });
  });

  it('skips what it cannot replay, saying why: data: URLs, WebSockets, failures, 304, HEAD, odd paths', () => {
    const result = convert(
      har(
        entry('data:image/png;base64,AAAA'),
        entry('ws://a.test/socket', { status: 101 }),
        { ...entry('http://a.test/socket', { status: 101 }), _resourceType: 'websocket' },
        entry('http://a.test/failed', { status: 0 }),
        entry('http://a.test/cached', { status: 304 }),
        entry('http://a.test/head', {}, 'HEAD'),
        entry('http://a.test/'),
        entry('http://a.test/%20x'),
        entry('http://a.test/ok'),
      ),
    );
    expect(result.records.map((r) => r.name)).to.deep.equal(['get-ok']);
    expect(result.otherHosts).to.equal(0);
    expect([...result.skipped]).to.deep.equal([
      ['not an HTTP request (data: URL)', 1],
      ['not an HTTP request (ws: URL)', 1],
      ['a WebSocket', 1],
      ['no answer was received (status 0: blocked, failed or cancelled)', 1],
      ['a 304 (not modified) has no body to replay', 1],
      ['a HEAD answer has no body to replay (a recorded GET answers HEAD)', 1],
      ['only paths of letters, digits and . _ ~ - segments are recorded', 2],
    ]);
  });

  it('refuses a document that is not a HAR, a malformed entry, and too many entries', () => {
    const refusals: [unknown, string][] = [
      [{ entries: [] }, 'is not a HAR file: it has no log.entries list'],
      [har({ request: { url: 'http://a.test/' } }), 'log.entries[0].request has no method and url'],
      [har(entry('http://a.test/x'), { request: { method: 'GET', url: 'http://a.test/' } }), 'log.entries[1].response has no status and headers'],
      [har({ ...entry('x'), request: { method: 'GET', url: 'not a url' } }), 'log.entries[0].request.url is not a URL'],
      [
        har(...Array.from({ length: MAX_HAR_ENTRIES + 1 }, () => entry('http://a.test/x'))),
        `holds ${MAX_HAR_ENTRIES + 1} entries, more than ${MAX_HAR_ENTRIES}: split it`,
      ],
    ];
    for (const [value, message] of refusals) {
      expect(() => convert(value)).to.throw(HarError, message);
    }
    expect(isHar(har())).to.equal(true);
    expect(isHar({ name: 'x', data: 1 })).to.equal(false);
  });
});
