import { expect } from 'chai';
import Koa from 'koa';
import { errorHandler, HttpError } from '../../src/http/errors.js';
import { listen } from '../../src/server/listen.js';

describe('errorHandler', () => {
  async function answer(
    thrown: unknown,
    sent?: string,
  ): Promise<{ status: number; body: unknown; logged: string[]; connection: string | null }> {
    const logged: string[] = [];
    const app = new Koa();
    app.silent = true;
    app.use(errorHandler((_s, message, field) => ({ message, field }), { info() {}, warn() {}, error: (l) => logged.push(l) }));
    app.use(() => {
      throw thrown;
    });
    const running = await listen(app.callback(), 0, '127.0.0.1');
    try {
      const res = await fetch(`${running.url}/x`, sent === undefined ? {} : { method: 'POST', body: sent });
      return { status: res.status, body: await res.json(), logged, connection: res.headers.get('connection') };
    } finally {
      await running.close(100);
    }
  }

  it('sends an HttpError as written, field included', async () => {
    const { status, body, logged } = await answer(new HttpError(400, 'name is missing', 'name'));
    expect([status, body, logged]).to.deep.equal([400, { message: 'name is missing', field: 'name' }, []]);
  });

  it('closes the connection after refusing a body as too large, which is left unread', async () => {
    const { status, connection } = await answer(new HttpError(413, 'request body too large (the limit is 1MB)'));
    expect([status, connection]).to.deep.equal([413, 'close']);
  });

  it('drains a body refused for its declared length, unread, so that the client reads the 413', async () => {
    // Closing on a client still sending made it fail to write (EPIPE) before it read the answer.
    const { status, connection } = await answer(new HttpError(413, 'request body too large (the limit is 1MB)'), 'x'.repeat(5000));
    expect([status, connection]).to.deep.equal([413, 'keep-alive']);
  });

  it('keeps the connection for other client errors', async () => {
    const { connection } = await answer(new HttpError(404, 'not found'));
    expect(connection).to.equal('keep-alive');
  });

  it('keeps the status and message of a 5xx HttpError, such as a 503 for a full server', async () => {
    const { status, body } = await answer(new HttpError(503, 'too many event streams; try again later'));
    expect([status, body]).to.deep.equal([503, { message: 'too many event streams; try again later' }]);
  });

  it('answers anything unexpected with a generic 500 and logs it, never sending the stack', async () => {
    const { status, body, logged } = await answer(new Error('secret internals at /srv/app.js:12'));
    expect([status, body]).to.deep.equal([500, { message: 'internal server error' }]);
    expect(logged).to.have.length(1);
    expect(logged[0]).to.include('secret internals');
  });
});
