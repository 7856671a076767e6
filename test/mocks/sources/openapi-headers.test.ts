import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openapiRecords } from '../../../src/mocks/sources/openapi/to-records.js';
import { startMockServer, type TestMockServer } from '../server.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/openapi');

describe('Documented response headers of an OpenAPI document', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    for (const file of ['swagger-petstore-3.0.yaml', 'library-3.1.yaml']) {
      const path = join(FIXTURES, file);
      const { records } = await openapiRecords(path, readFileSync(path, 'utf8'));
      const res = await server.fetch('/api/endpoints/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ endpoints: records }) });
      expect(res.status).to.equal(200);
    }
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
