import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openapiRecords } from '../../../src/mocks/sources/openapi/to-records.js';
import type { TestMockServer } from '../server.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/openapi');

/** Imports the operations of `file` (under test/fixtures/openapi/) into `server` as `mock import` would. */
export async function importFixture(server: TestMockServer, file: string): Promise<void> {
  const path = join(FIXTURES, file);
  const { records } = await openapiRecords(path, readFileSync(path, 'utf8'));
  const res = await server.fetch('/api/endpoints/import', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ endpoints: records }),
  });
  expect(res.status, await res.clone().text()).to.equal(200);
}
