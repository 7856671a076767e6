import { expect } from 'chai';
import { startMockServer, type TestMockServer } from '../server.js';
import { importFixture } from './import-fixture.js';

describe('Documented response headers of an OpenAPI document', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    for (const file of ['swagger-petstore-3.0.yaml', 'library-3.1.yaml']) await importFixture(server, file);
  });
  after(() => server.close());

  it('sends a header without an example sampled from its schema (an int32, a date-time)', async () => {
    const res = await server.fetch('/endpoint/user/login?username=a&password=b');
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-rate-limit')).to.match(/^-?\d+$/);
    expect(new Date(res.headers.get('x-expires-after')!).toString()).to.not.equal('Invalid Date');
  });

  it("sends a header's example as written", async () => {
    const res = await server.fetch('/endpoint/loans');
    expect(res.headers.get('x-total')).to.equal('42');
  });
});
