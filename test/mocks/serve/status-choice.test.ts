import { expect } from 'chai';
import { preference } from '../../../src/mocks/serve/status-choice.js';
import { startMockServer, type TestMockServer } from '../server.js';

describe('choosing an answer by status (?__code= and Prefer: code=)', () => {
  describe('the Prefer header', () => {
    const cases: [string, string | undefined][] = [
      ['code=404', '404'],
      ['code=404, example=x', '404'],
      ['example=x, CODE = 500', '500'],
      ['return=minimal; x=1, code="422"', '422'],
      ['example="a, code=1", code=201', '201'],
      ['code=404;dynamic=true', '404'],
      ['return=minimal', undefined],
      ['', undefined],
    ];
    for (const [header, code] of cases) {
      it(`reads code ${code ?? 'none'} from '${header}'`, () => {
        expect(preference(header, 'code')).to.equal(code);
      });
    }

    it('reads a 64 KB header of unclosed quoted escapes in linear time', () => {
      // A backtracking pattern took seconds here (quadratic); one pass takes about a millisecond.
      const start = performance.now();
      expect(preference(`"\\`.repeat(32_768), 'code')).to.equal(undefined);
      expect(performance.now() - start).to.be.below(500);
    });
  });

  describe('serving', () => {
    let server: TestMockServer;
    before(async () => {
      server = await startMockServer();
      const put = async (name: string, record: unknown) =>
        expect((await server.putJson(`/api/endpoint/${name}`, record)).status).to.be.oneOf([200, 201]);
      await put('plain', { data: { ok: true } });
      await put('answers', {
        statusCode: 201,
        data: { made: true },
        responses: [
          { when: { query: { never: 'x' } }, statusCode: 404, data: { missing: true } },
          { when: { query: { never: 'z' } }, statusCode: 404, data: { second: true } },
          { when: { query: { never: 'y' } }, statusCode: 503, body: 'down', headers: { 'Retry-After': '5' } },
        ],
      });
    });
    after(() => server.close());

    const cases: { what: string; path: string; prefer?: string; status: number; body: unknown }[] = [
      { what: 'the own answer without a choice', path: 'answers', status: 201, body: { made: true } },
      {
        what: 'the first 404 response, whatever its when',
       path: 'answers?__code=404',
        status: 404,
        body: { missing: true },
      },
      { what: 'a text answer by Prefer', path: 'answers', prefer: 'code=503, example=x', status: 503, body: 'down' },
      { what: 'the own answer by status', path: 'answers', prefer: 'code=201', status: 201, body: { made: true } },
      { what: 'by query first', path: 'answers?__code=201', prefer: 'code=404', status: 201, body: { made: true } },
      { what: 'a plain endpoint\'s answer', path: 'plain?__code=200', status: 200, body: { ok: true } },
      {
        what: '422 naming the statuses there are',
        path: 'answers?__code=418',
        status: 422,
        body: {
          success: false,
          message: 'no answer with status 418 here; this endpoint answers 201, 404, 503',
          field: '__code',
        },
      },
      {
        what: '422 on a plain endpoint',
        path: 'plain',
        prefer: 'code=500',
        status: 422,
        body: {
          success: false,
          message: 'no answer with status 500 here; this endpoint answers 200',
          field: 'prefer',
        },
      },
      {
        what: '400 for a code that is no status',
        path: 'answers?__code=abc',
        status: 400,
        body: { success: false, message: '__code=abc is not a status from 200 to 599', field: '__code' },
      },
      {
        what: '400 for a Prefer code that is no status',
        path: 'plain',
        prefer: 'code=99',
        status: 400,
        body: { success: false, message: 'Prefer: code=99 is not a status from 200 to 599', field: 'prefer' },
      },
      { what: 'as ever to other Prefers', path: 'plain', prefer: 'return=minimal', status: 200, body: { ok: true } },
    ];
    for (const { what, path, prefer, status, body } of cases) {
      it(`answers ${what}`, async () => {
        const res = await server.fetch(`/endpoint/${path}`, prefer ? { headers: { prefer } } : {});
        expect(res.status).to.equal(status);
        const text = await res.text();
        expect(typeof body === 'string' ? text : JSON.parse(text)).to.deep.equal(body);
      });
    }

    it('logs a refused choice with its status', async () => {
      await server.fetch('/endpoint/plain?__code=404');
      const log = await (await server.fetch('/api/endpoint/plain/requests')).json();
      const entry = log.requests.find((r: { url: string }) => r.url === '/endpoint/plain?__code=404');
      expect(entry).to.include({ status: 422, response: null });
    });
  });
});
