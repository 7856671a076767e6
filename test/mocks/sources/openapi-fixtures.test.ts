import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openapiRecords } from '../../../src/mocks/sources/openapi/to-records.js';
import { operationsOf, schemaChecker } from './openapi-schema.js';
import { startMockServer, type TestMockServer } from '../server.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/openapi');
const check = schemaChecker();

/** The status an operation's `default` or `4XX` key is served as (docs/mock-api.md). */
function servedAs(key: string, keys: string[]): number {
  if (/^\d{3}$/.test(key)) return Number(key);
  if (/^\dXX$/i.test(key)) return Number(key[0]) * 100;
  return keys.some((k) => k !== 'default') ? 500 : 200;
}

describe('OpenAPI documents served as mocks', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer();
  });
  afterEach(() => server.close());

  const cases = [
    { file: 'petstore-3.0.yaml', operations: 3 },
    { file: 'petstore-expanded-2.0.yaml', operations: 4 },
    { file: 'swagger-petstore-3.0.yaml', operations: 19 },
    { file: 'library-3.1.yaml', operations: 4 },
  ];
  for (const { file, operations: count } of cases) {
    it(`answers every operation of ${file} with each documented status and a body its schema accepts`, async () => {
      const path = join(FIXTURES, file);
      const text = readFileSync(path, 'utf8');
      const { records, skipped } = await openapiRecords(path, text);
      expect(skipped).to.deep.equal([]);
      const imported = await server.fetch('/api/endpoints/import', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ endpoints: records, replace: true }),
      });
      expect(imported.status, await imported.clone().text()).to.equal(200);

      const operations = await operationsOf(path, text);
      expect(operations).to.have.length(count);
      let checked = 0;
      for (const { method, url, statuses } of operations) {
        const keys = [...statuses.keys()];
        const served = keys.map((key) => servedAs(key, keys));
        const success = served.filter((s) => s >= 200 && s < 300).sort()[0] ?? Math.min(...served);
        for (const [key, schema] of statuses) {
          const status = servedAs(key, keys);
          const asks: RequestInit[] =
            status === success ? [{}] : [{ headers: { prefer: `code=${status}, example=x` } }, {}];
          for (const ask of asks) {
            const query = ask.headers || status === success ? '' : `?__code=${status}`;
            const res = await server.fetch(`/endpoint${url}${query}`, { method, ...ask });
            const where = `${method} ${url}${query} ${JSON.stringify(ask.headers ?? {})}`;
            expect(res.status, where).to.equal(status);
            const body = await res.text();
            if (schema === undefined || status === 204) {
              if (!/json/.test(res.headers.get('content-type') ?? '')) expect(body, where).to.be.a('string');
              continue;
            }
            expect(check(schema, JSON.parse(body)), `${where}: ${body}`).to.equal(undefined);
            checked++;
          }
        }
      }
      expect(checked).to.be.greaterThan(0);
    });
  }
});
