import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../../helpers/temp.js';

const TO_RECORDS = new URL('../../../src/mocks/sources/openapi/to-records.ts', import.meta.url).href;

/**
 * `count` operations answering one shared schema of about `bytes` bytes, the last one invalid: small
 * as written, but count × bytes once its $refs are resolved (as in DigitalOcean's description, 13 MB).
 */
function sharedSchemaDocument(count: number, bytes: number): string {
  const properties = Object.fromEntries(
    Array.from({ length: bytes / 100 }, (_, i) => [`p${i}`, { type: 'string', description: 'd'.repeat(60) }]),
  );
  const response = { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Big' } } } } };
  const paths = Object.fromEntries(Array.from({ length: count }, (_, i) => [`/things${i}`, { get: { responses: response } }]));
  paths['/bad'] = { get: { operationId: 'bad' } } as never;
  return JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths, components: { schemas: { Big: { type: 'object', properties } } } });
}

describe('the memory a document with a bad operation takes', function () {
  this.timeout(120_000);
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => (temp = tempDir()));
  afterEach(() => temp.cleanup());

  it('is bounded by the part of the paths being checked, not by the document expanded', async () => {
    // The validator words an error over a syntax tree of the whole document expanded: 60 MB here,
    // which took a 1 GB heap and more, and ended a process held to 400 MB.
    const file = join(temp.dir, 'api.json');
    writeFileSync(file, sharedSchemaDocument(300, 200_000));
    const script =
      `const { openapiRecords } = await import(${JSON.stringify(TO_RECORDS)});` +
      `const { readFileSync } = await import('node:fs');` +
      `const { records, skipped } = await openapiRecords(${JSON.stringify(file)}, readFileSync(${JSON.stringify(file)}, 'utf8'));` +
      'console.log(JSON.stringify([records.length, skipped]));';
    const args = ['--max-old-space-size=400', '--import', 'tsx', '--input-type=module', '-e', script];
    const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 20 });
    const [served, skipped] = JSON.parse(stdout) as [number, string[]];
    expect(served).to.equal(300);
    expect(skipped).to.have.length(1);
    expect(skipped[0]).to.match(/^GET \/bad: REQUIRED must have required property 'responses'/);
  });
});
