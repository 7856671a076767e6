import { expect } from 'chai';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

const SCHEMA = 'type Query {\n  hello(name: String!): String!\n}\n';
/** A GraphQL record as a --dir file holds it: the schema as a YAML block. */
const FILE = `kind: graphql
schema: |
${SCHEMA.replace(/^/gm, '  ').trimEnd()}
mocks:
  Query.hello: "Hello {{args.name}}"
responses:
  - when: { operationName: Fail }
    errors: [{ message: failed }]
`;

describe('snippetkit with GraphQL records: --dir files, mock log, export and import', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempDir>;
  let source: ServerProcess | undefined;
  let target: ServerProcess | undefined;
  before(() => {
    temp = tempDir();
  });
  after(async () => {
    await Promise.all([source?.stop(), target?.stop()]);
    temp.cleanup();
  });

  it('serves a --dir file, logs the operation by name, and exports and imports the record unchanged', async () => {
    mkdirSync(join(temp.dir, 'mocks'));
    writeFileSync(join(temp.dir, 'mocks', 'api.yaml'), FILE);
    [source, target] = await Promise.all([
      startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 's.sqlite'), '--dir', join(temp.dir, 'mocks')]),
      startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 't.sqlite')]),
    ]);
    const query = encodeURIComponent('query Greet { hello(name: "Ada") }');
    const res = await fetch(`${source.url}/endpoint/api?query=${query}`);
    expect(await res.json()).to.deep.equal({ data: { hello: 'Hello Ada' } });

    const log = await runCli(['mock', 'log', 'api', '--server', source.url], { NO_COLOR: '1' });
    expect(log.code, log.stderr).to.equal(0);
    expect(log.stdout).to.include(`GET /endpoint/api?query=${query} Greet  → 200 default`);

    // Export leaves out what files serve: the same record added through the API is exported.
    const put = await fetch(`${source.url}/api/endpoint/added`, { method: 'PUT', body: JSON.stringify(parse(FILE)) });
    expect(put.status).to.equal(201);
    const shown = await runCli(['mock', 'get', 'added', '--server', source.url], { NO_COLOR: '1' });
    expect(shown.code, shown.stderr).to.equal(0);
    expect(shown.stdout).to.include(`kind      graphql\nschema\n${SCHEMA.trimEnd()}\nmocks\n`);
    expect(shown.stdout).to.include('#1 operation Fail → 200\n   errors\n   [\n     {\n       "message": "failed"');
    const out = join(temp.dir, 'all.yaml');
    const exported = await runCli(['mock', 'export', '--out', out, '--server', source.url]);
    expect(exported.code, exported.stderr).to.equal(0);
    const [record] = parse(readFileSync(out, 'utf8')) as Record<string, unknown>[];
    expect(record).to.deep.equal({ name: 'added', ...(parse(FILE) as object), statusCode: 200, delay: 0 });
    const imported = await runCli(['mock', 'import', out, '--server', target.url]);
    expect(imported.code, imported.stderr).to.equal(0);
    const again = await fetch(`${target.url}/endpoint/added`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query Fail { hello(name: "x") }' }),
    });
    expect(await again.json()).to.deep.equal({ errors: [{ message: 'failed' }] });
  });
});
