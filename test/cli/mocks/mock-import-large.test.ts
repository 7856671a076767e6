import { expect } from 'chai';
import { callApi } from '../../../src/cli/common/client.js';
import { MOCK_DEFAULTS } from '../../../src/mocks/config/defaults.js';
import { runCli, useMockProcess } from '../../helpers/cli.js';

/** An OpenAPI document of `count` operations, each answering an example of about `bytes` bytes. */
function bigDocument(count: number, bytes: number): string {
  const paths = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `/things${i}`,
      { get: { responses: { 200: { description: 'ok', content: { 'application/json': { example: { text: 'x'.repeat(bytes) } } } } } } },
    ]),
  );
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'big', version: '1' }, paths });
}

describe('large bodies to a default mock server (another process, as the CLI meets it)', function () {
  this.timeout(60_000);
  const server = useMockProcess();

  it('imports a document whose endpoints are larger than --max-body (the import limit is for documents)', async () => {
    // Stripe's description is about 4 MB; its endpoints went over the 1 MB --max-body in one request.
    const file = server.file('big.json', bigDocument(400, 10_000));
    const result = await runCli(['mock', 'import', file, '--server', server.url]);
    expect(result.stderr).to.contain(`imported 400 endpoints from ${file}: 400 created, 0 replaced`);
    expect(result.code).to.equal(0);
  });

  it("reads the server's 413 for a body over the limit, never reporting the server as unreachable", async () => {
    // The server answers 413 before the body is sent; closing on it made the client fail to write
    // (EPIPE) before it read the answer, in 5 of 9 tries with a 5 MB body.
    const options = { server: server.url, kind: 'mock' as const };
    for (let i = 0; i < 9; i++) {
      const json = { name: `big-${i}`, body: 'x'.repeat(5 * MOCK_DEFAULTS.maxBody) };
      const { status, body } = await callApi(options, 'PUT', 'api/endpoint/add', { json });
      expect(status, `try ${i + 1}`).to.equal(413);
      expect(body).to.have.property('message').that.contains('request body too large');
    }
  });
});
