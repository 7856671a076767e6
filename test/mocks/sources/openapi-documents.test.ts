import { expect } from 'chai';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { OpenapiError } from '../../../src/mocks/sources/openapi/load-document.js';
import { openapiRecords } from '../../../src/mocks/sources/openapi/to-records.js';
import { tempDir } from '../../helpers/temp.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/openapi');
const fixture = (name: string) => openapiRecords(join(FIXTURES, name), readFileSync(join(FIXTURES, name), 'utf8'));

/** The message openapiRecords throws for `text` saved as `name` in `dir`. */
async function refusal(dir: string, name: string, text: string): Promise<string> {
  const file = join(dir, name);
  writeFileSync(file, text);
  try {
    await openapiRecords(file, text);
  } catch (err) {
    expect(err).to.be.instanceOf(OpenapiError);
    return (err as Error).message;
  }
  throw new Error('the document was accepted');
}

const HEAD = 'openapi: 3.0.3\ninfo: { title: t, version: "1" }\n';
const withSchema = (schema: string) =>
  `${HEAD}paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n` +
  `          content: { application/json: { schema: ${schema} } }\n`;

describe('OpenAPI documents to endpoint records', () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(() => temp.cleanup());

  it('maps names, paths, methods and statuses by the documented rules', async () => {
    const { records } = await fixture('library-3.1.yaml');
    const statuses = (r: Record<string, unknown>) => (r.responses as any[] | undefined)?.map((x) => x.statusCode);
    const summary = records.map((r) => [r.name, r.path, r.methods, r.statusCode, statuses(r)]);
    expect(summary).to.deep.equal([
      ['list-books', 'books', ['GET'], 200, [400, 500]],
      ['get-books-bookId-format', 'books/:bookId/:format', ['GET'], 200, [404]],
      ['getBook', 'books/:bookId', ['GET'], 200, undefined],
      ['add-2', 'loans', ['GET'], 200, undefined],
    ]);
  });

  it('serves an operation at / at /endpoint/, and skips a HEAD beside a GET and a second one on a route, saying why', async () => {
    const ok = "{ responses: { '200': { description: ok } } }";
    const param = "parameters: [{ name: x, in: path, required: true, schema: { type: string } }]";
    const text =
      `${HEAD}paths:\n  /:\n    get: ${ok}\n  /a:\n    get: ${ok}\n    head: ${ok}\n` +
      `  /b/{x}:\n    ${param}\n    get: ${ok}\n  /b/{x}.json:\n    ${param}\n    get: ${ok}\n    put: ${ok}\n`;
    const { records, skipped } = await openapiRecords(join(temp.dir, 'api.yaml'), text);
    expect(records.map((r) => [r.name, r.path])).to.deep.equal([
      ['get', '/'],
      ['get-a', 'a'],
      ['get-b-x', 'b/:x'],
      ['put-b-x', 'b/:x'],
    ]);
    expect(skipped).to.deep.equal([
      'HEAD /a: the GET operation of this path answers HEAD (#/paths/~1a/head)',
      'GET /b/{x}.json: it is served at the same route as GET /b/{x} (#/paths/~1b~1{x}.json/get)',
    ]);
  });

  it('answers with the first named example, a text body with its type, and documented header examples', async () => {
    const [books, cover, , loans] = (await fixture('library-3.1.yaml')).records;
    expect(books!.data).to.deep.equal([
      { id: 1, title: 'Dune', subtitle: null },
      { id: 2, title: 'Emma', subtitle: 'A Novel' },
    ]);
    expect((books!.responses as any[])[0]).to.deep.include({
      when: { query: { __code: '400' } },
      headers: { 'Content-Type': 'application/problem+json' },
    });
    expect(cover).to.deep.include({ body: 'a blue cover', headers: { 'Content-Type': 'text/plain' } });
    expect(loans!.headers).to.deep.equal({ 'X-Total': '42' });
  });

  it('samples a self-reference below itself with what it requires, never an empty object', async () => {
    const { records } = await fixture('circular-3.0.json');
    expect(records[0]!.data).to.deep.equal({ name: 'string', children: [{ name: 'string' }], parent: { name: 'string' } });
  });

  it('names the line and column and the pointer of an invalid operation, which is left out', async () => {
    const file = join(temp.dir, 'bad.yaml');
    const text = withSchema('{ type: objet }');
    writeFileSync(file, text);
    const { records, skipped } = await openapiRecords(file, text);
    expect(records).to.deep.equal([]);
    expect(skipped).to.deep.equal([
      'GET /a: ENUM must be equal to one of the allowed values at line 9, column 58 ' +
        '(#/paths/~1a/get/responses/200/content/application~1json/schema/type)',
    ]);
  });

  const syntax: [string, string, string][] = [
    [
      'bad.yaml',
      `${HEAD}paths: [a\n`,
      'is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] ' +
        'at line 4, column 1',
    ],
    [
      'bad.json',
      '{"openapi": "3.0.3",}',
      "is not valid JSON: expected a property name in double quotes but found '}' at line 1, column 21",
    ],
    ['records.yaml', '- name: a\n', "is not an OpenAPI document: it has no top-level 'openapi' or 'swagger' key"],
  ];
  for (const [name, text, expected] of syntax) {
    it(`refuses ${name}: ${expected.split(':')[0]}`, async () => {
      expect(await refusal(temp.dir, name, text)).to.equal(`${join(temp.dir, name)} ${expected}`);
    });
  }

  it('reads a $ref to a file beside the document, wherever the process runs', async () => {
    mkdirSync(join(temp.dir, 'schemas'));
    const pet = 'type: object\nproperties: { id: { type: integer, example: 7 } }\n';
    writeFileSync(join(temp.dir, 'schemas', 'pet.yaml'), pet);
    const file = join(temp.dir, 'api.yaml');
    const text = withSchema("{ $ref: 'schemas/pet.yaml' }");
    const { records } = await openapiRecords(file, text);
    expect(records[0]!.data).to.deep.equal({ id: 7 });
  });

  describe('a $ref over the network', () => {
    let upstream: Server;
    let requests = 0;
    let url = '';
    before(async () => {
      upstream = createServer((_req, res) => {
        requests++;
        res.end('type: string\n');
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/schema.yaml`;
    });
    after(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

    it('is refused in the document, naming where, and never fetched', async () => {
      const message = await refusal(temp.dir, 'api.yaml', withSchema(`{ $ref: '${url}' }`));
      expect(message).to.equal(
        `${join(temp.dir, 'api.yaml')}: #/paths/~1a/get/responses/200/content/application~1json/schema/$ref: ` +
          `'${url}' is refused: only $refs to files beside it are read`,
      );
      expect(requests).to.equal(0);
    });

    it('is not fetched from a file beside the document either', async () => {
      writeFileSync(join(temp.dir, 'pet.yaml'), `type: object\nproperties: { id: { $ref: '${url}' } }\n`);
      const message = await refusal(temp.dir, 'api.yaml', withSchema("{ $ref: 'pet.yaml' }"));
      expect(message).to.contain(`cannot be read: Unable to resolve $ref pointer "${url}"`);
      expect(requests).to.equal(0);
    });
  });
});
