import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callApi, type ClientOptions } from '../../../src/cli/common/client.js';
import { CliError, EXIT } from '../../../src/cli/common/errors.js';

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

/** A server answering every request with `answer`; what it was sent is kept in `seen`. */
async function serverOf(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The CliError a call ends with. */
async function failure(call: Promise<unknown>): Promise<CliError> {
  try {
    await call;
  } catch (err) {
    expect(err).to.be.instanceOf(CliError);
    return err as CliError;
  }
  throw new Error('the call succeeded');
}

describe("callApi (the client commands' one request)", () => {
  let server: Awaited<ReturnType<typeof serverOf>> | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const mock = (url: string, extra: Partial<ClientOptions> = {}): ClientOptions => ({ server: url, kind: 'mock', ...extra });

  it('sends JSON with its length (not chunked), the key and Accept, and reads the JSON answer', async () => {
    server = await serverOf((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"success":true,"name":"é"}');
    });
    const answer = await callApi(mock(`${server.url}/under`, { apiKey: 'k1' }), 'PUT', 'api/endpoint/add', { json: { name: 'é' } });
    expect(answer).to.deep.equal({ status: 200, body: { success: true, name: 'é' } });
    const [sent] = server.seen;
    expect(sent).to.include({ method: 'PUT', url: '/under/api/endpoint/add', body: '{"name":"é"}' });
    expect(sent!.headers).to.include({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength('{"name":"é"}')),
      accept: 'application/json',
      authorization: 'token k1',
    });
    expect(sent!.headers).not.to.have.property('transfer-encoding');
  });

  it('says a server that closed the connection on a body being sent was reached, not unreachable', async () => {
    // A server drains a refused body only up to a cap (64 MiB); past it, it closes while the client writes.
    const raw = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
      const json = { name: 'big', body: 'x'.repeat(8 * 1024 * 1024) };
      const err = await failure(callApi(mock(url), 'PUT', 'api/endpoint/add', { json }));
      expect(err.message).to.match(/^the mock server at http:\/\/127\.0\.0\.1:\d+ closed the connection while a \d+-byte body was sent/);
      expect(err.exitCode).to.equal(EXIT.refused);
    } finally {
      raw.closeAllConnections();
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    }
  });

  it('sends a form as application/x-www-form-urlencoded', async () => {
    server = await serverOf((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"url":"abc"}');
    });
    await callApi({ server: server.url, kind: 'bin' }, 'POST', 'api/save', { form: { html: 'a&b', javascript: '' } });
    expect(server.seen[0]).to.include({ body: 'html=a%26b&javascript=' });
    expect(server.seen[0]!.headers['content-type']).to.equal('application/x-www-form-urlencoded');
  });

  it('says a redirect is not our API, naming where it leads, and does not follow it', async () => {
    server = await serverOf((_req, res) => {
      res.writeHead(302, { Location: 'https://login.example.test/' });
      res.end();
    });
    const err = await failure(callApi(mock(server.url), 'GET', 'api/endpoints'));
    expect(err.message).to.equal(
      `${server.url} does not look like a snippetkit mock server: GET /api/endpoints answered 302 (to https://login.example.test/); check --server`,
    );
    expect(err.exitCode).to.equal(EXIT.badServer);
    expect(server.seen).to.have.length(1);
  });

  it('gives up on a server that does not answer in time', async () => {
    const held: ServerResponse[] = [];
    server = await serverOf((_req, res) => held.push(res));
    const err = await failure(callApi(mock(server.url, { timeoutMs: 200 }), 'GET', 'api/endpoints'));
    expect(err.message).to.equal(
      `cannot reach the mock server at ${server.url} (it did not answer in time); start one with \`snippetkit serve-mocks\` or pass --server URL`,
    );
    expect(err.exitCode).to.equal(EXIT.unreachable);
    held.forEach((res) => res.destroy());
  });

  it('says the server could not be reached when it cuts the answer short', async () => {
    server = await serverOf((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"success":');
      setImmediate(() => res.destroy());
    });
    const err = await failure(callApi(mock(server.url), 'GET', 'api/endpoints'));
    expect(err.message).to.match(new RegExp(`^cannot reach the mock server at ${server.url} \\((ECONNRESET|aborted)\\)`));
    expect(err.exitCode).to.equal(EXIT.unreachable);
  });

  it('names the code of a refused connection', async () => {
    server = await serverOf(() => {});
    const { url } = server;
    await server.close();
    server = undefined;
    const err = await failure(callApi(mock(url), 'GET', 'api/endpoints'));
    expect(err.message).to.equal(
      `cannot reach the mock server at ${url} (ECONNREFUSED); start one with \`snippetkit serve-mocks\` or pass --server URL`,
    );
  });
});
