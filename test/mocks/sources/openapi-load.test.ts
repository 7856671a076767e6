import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openapiRecords } from '../../../src/mocks/sources/openapi/to-records.js';
import { tempDir } from '../../helpers/temp.js';

type Records = Awaited<ReturnType<typeof openapiRecords>>;

/** Writes `files` (path -> text) under a temp folder and loads its `api.yaml`. */
async function load(dir: string, files: Record<string, string>): Promise<Records> {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const file = join(dir, 'api.yaml');
  return openapiRecords(file, files['api.yaml']!);
}

const HEAD = 'openapi: 3.0.3\ninfo: { title: t, version: "1" }\n';

describe('OpenAPI documents load what can be loaded', () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => (temp = tempDir()));
  afterEach(() => temp.cleanup());

  it('answers a `$ref` key inside example data as data, not as a reference', async () => {
    // The shape issue 28 reports of GitHub's description (github/rest-api-description, too large to
    // fetch here, so not an extract of it): example data holding a `$ref` key refused the whole document.
    const api =
      HEAD +
      'paths:\n  /refs:\n    get:\n      responses:\n        "200":\n          description: ok\n' +
      '          content:\n            application/json:\n              examples:\n' +
      '                default: { $ref: "#/components/examples/ref" }\n' +
      'components:\n  examples:\n    ref:\n      value: { $ref: refs/heads/main, object: { $ref: "#/nowhere" } }\n';
    const { records } = await load(temp.dir, { 'api.yaml': api });
    expect(records).to.have.length(1);
    expect(records[0]!.data).to.deep.equal({ $ref: 'refs/heads/main', object: { $ref: '#/nowhere' } });
  });

  it('keeps a `$ref` in a schema property named `example`', async () => {
    const api =
      HEAD +
      'paths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n' +
      '          content:\n            application/json:\n              schema:\n                type: object\n' +
      '                properties:\n                  example: { $ref: "#/components/schemas/N" }\n' +
      'components:\n  schemas:\n    N: { type: integer, example: 7 }\n';
    const { records } = await load(temp.dir, { 'api.yaml': api });
    expect(records[0]!.data).to.deep.equal({ example: 7 });
  });

  it('reads an operation given as a `$ref` to a file whose schemas are circular', async () => {
    // The shape of DigitalOcean's multi-file source (digitalocean/openapi, specification/): every
    // operation a $ref to a file, whose schemas refer to each other in a definitions file. The parser
    // left such operations as bare $refs and the document was refused as invalid.
    const operation = (id: string) =>
      `operationId: ${id}\nresponses:\n  "200":\n    description: ok\n    content:\n      application/json:\n` +
      '        schema: { $ref: "./definitions.yml#/Workspace" }\n  "404": { $ref: "../shared/not_found.yml" }\n';
    const files = {
      'api.yaml':
        HEAD +
        'paths:\n  /workspaces:\n    get: { $ref: "resources/list.yml" }\n    post: { $ref: "resources/create.yml" }\n' +
        '  /gone:\n    get: { $ref: "resources/missing.yml" }\n  /outside:\n    get: { $ref: "../elsewhere.yml" }\n',
      'resources/list.yml': operation('list'),
      'resources/create.yml': operation('create'),
      'resources/definitions.yml':
        'Workspace:\n  type: object\n  properties:\n    name: { type: string, example: w }\n' +
        '    agents: { type: array, items: { $ref: "#/Agent" } }\n' +
        'Agent:\n  type: object\n  properties:\n    workspace: { $ref: "#/Workspace" }\n',
      'shared/not_found.yml': 'description: not found\ncontent:\n  application/json: { example: { id: not_found } }\n',
    };
    const { records, skipped } = await load(temp.dir, files);
    expect(records.map((record) => record.name)).to.deep.equal(['list', 'create']);
    expect(records[0]!.responses).to.deep.equal([
      { when: { query: { __code: '404' } }, statusCode: 404, data: { id: 'not_found' } },
    ]);
    expect(skipped).to.have.length(2);
    expect(skipped[0]).to.match(/^GET \/gone: \$ref to .*missing\.yml: .* \(#\/paths\/~1gone\/get\)$/);
    expect(skipped[1]).to.match(/^GET \/outside: \$ref to .*elsewhere\.yml: .*the document's folder.* \(#\/paths\/~1outside\/get\)$/);
  });

  it('leaves out an operation that does not validate, naming its place, and serves the others', async () => {
    const api =
      HEAD +
      'paths:\n  /good:\n    get:\n      responses:\n        "200": { description: ok }\n' +
      '  /bad:\n    get:\n      operationId: bad\n    post:\n      responses:\n        "201": { description: made }\n';
    const { records, skipped } = await load(temp.dir, { 'api.yaml': api });
    expect(records.map((record) => `${record.methods} ${record.path}`)).to.deep.equal(['GET good', 'POST bad']);
    expect(skipped).to.deep.equal([
      "GET /bad: REQUIRED must have required property 'responses' at line 10, column 7 (#/paths/~1bad/get)",
    ]);
  });

  it('still refuses a document whose error is outside the operations', async () => {
    const api = 'openapi: 3.0.3\ninfo: { version: "1" }\npaths:\n  /good:\n    get:\n      responses:\n        "200": { description: ok }\n';
    let message = '';
    await load(temp.dir, { 'api.yaml': api }).catch((err: Error) => (message = err.message));
    expect(message).to.contain("is not a valid OpenAPI document:\n  REQUIRED must have required property 'title'");
  });

  it('serves paths holding `?query`, `#fragment` or a `:verb` as written, and leaves out an operation the checks refuse', async () => {
    const ok = '{ responses: { "200": { description: ok } } }';
    const api =
      HEAD +
      `paths:\n  /:\n    get: ${ok}\n  /search?type=user:\n    get: ${ok}\n  /docs#part:\n    get: ${ok}\n` +
      `  /v1/things:batchGet:\n    post: ${ok}\n  /v1/things:batchSet:\n    post: ${ok}\n  /v1/things/{id}:\n    post: ${ok}\n  /fine:\n    get: ${ok}\n`;
    const { records, skipped } = await load(temp.dir, { 'api.yaml': api });
    expect(records.map((record) => `${record.methods} ${record.path}`)).to.deep.equal([
      'GET /',
      'GET search?type=user',
      'GET docs#part',
      'POST v1/things:batchGet',
      'POST v1/things:batchSet',
      'GET fine',
    ]);
    expect(skipped).to.deep.equal([
      'POST /v1/things/{id}: `/paths/v1/things/{id}/post` is missing path parameter(s) for `{id}`. (#/paths/~1v1~1things~1{id}/post)',
    ]);
  });
});
