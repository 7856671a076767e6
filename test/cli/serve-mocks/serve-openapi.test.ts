import { expect } from 'chai';
import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';

const PETSTORE = new URL('../../fixtures/openapi/petstore-3.0.yaml', import.meta.url);

type Sources = { errors: { file: string; message: string }[] };

describe('snippetkit serve-mocks --openapi (a real process)', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    temp.cleanup();
  });

  const start = async (doc: string) => {
    const data = join(temp.dir, 'mocks.sqlite');
    server = await startServerProcess(['serve-mocks', '--port', '0', '--data', data, '--openapi', doc]);
    return server;
  };
  const status = async (path: string) => (await fetch(`${server!.url}/endpoint/${path}`)).status;

  it('serves each operation, marked as from the file, and follows the file as it changes', async () => {
    const doc = join(temp.dir, 'api.yaml');
    copyFileSync(PETSTORE, doc);
    await start(doc);
    expect(await status('pets/7')).to.equal(200);
    // Only `default` documents a 404 here: it answers any status asked for (docs/mock-api.md).
    expect(await status('pets/7?__code=404')).to.equal(404);
    const one = (await (await fetch(`${server!.url}/api/endpoint/showPetById`)).json()) as { source: string };
    expect(one.source).to.equal(`file:${doc}`);
    const put = await fetch(`${server!.url}/api/endpoint/showPetById`, { method: 'PUT', body: '{"data": 1}' });
    expect(put.status).to.equal(409);

    // an editor's save: a new file renamed over the old one, here without the single-pet route
    const text = readFileSync(doc, 'utf8');
    const without = text.slice(0, text.indexOf('  /pets/{petId}:')) + text.slice(text.indexOf('components:'));
    writeFileSync(join(temp.dir, 'api.yaml.new'), without);
    renameSync(join(temp.dir, 'api.yaml.new'), doc);
    await until(async () => (await status('pets/7')) === 404);
    expect(await status('pets')).to.equal(200);
    await until(() => server!.stderr().includes(`- showPetById (${doc})`));
  });

  it('reports a document that does not validate, keeping the endpoints it had', async () => {
    const doc = join(temp.dir, 'api.yaml');
    copyFileSync(PETSTORE, doc);
    await start(doc);
    writeFileSync(doc, readFileSync(doc, 'utf8').replace('openapi: "3.0.0"', 'openapi: "3.0.0"\nnonsense: [1'));
    const sources = async () => (await (await fetch(`${server!.url}/api/sources`)).json()) as Sources;
    await until(async () => (await sources()).errors.length === 1);
    const [error] = (await sources()).errors;
    expect(error!.file).to.equal(doc);
    expect(error!.message).to.match(/^is not valid YAML: .* at line \d+, column \d+/);
    expect(await status('pets/7')).to.equal(200);
  });

  it('serves no file from outside the document\'s folder that a $ref names, and reports the $ref', async () => {
    writeFileSync(join(temp.dir, 'secret.txt'), 'the secret');
    mkdirSync(join(temp.dir, 'api'));
    const doc = join(temp.dir, 'api', 'api.yaml');
    writeFileSync(
      doc,
      'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths:\n  /stolen:\n    get:\n      responses:\n' +
        "        '200':\n          description: ok\n" +
        "          content: { text/plain: { schema: { $ref: '../secret.txt' } } }\n",
    );
    await start(doc);
    const why = `cannot be read: $ref to ${join(temp.dir, 'secret.txt')}: it is outside the document's folder`;
    await until(() => server!.stderr().includes(why));
    const res = await fetch(`${server!.url}/endpoint/stolen`);
    expect([res.status, await res.text()]).to.not.deep.equal([200, 'the secret']);
    expect(res.status).to.equal(404);
    const { errors } = (await (await fetch(`${server!.url}/api/sources`)).json()) as Sources;
    expect(errors.map((e) => [e.file, e.message])).to.deep.equal([[doc, why]]);
  });

  it('serves the operations that load and lists each one left out, with its place, as a problem', async () => {
    const doc = join(temp.dir, 'api.yaml');
    writeFileSync(
      doc,
      'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths:\n  /good:\n    get:\n      responses:\n' +
        "        '200': { description: ok }\n  /bad:\n    get: { operationId: bad }\n" +
        "  /elsewhere:\n    get: { $ref: '../op.yaml' }\n",
    );
    await start(doc);
    expect(await status('good')).to.equal(200);
    const { errors } = (await (await fetch(`${server!.url}/api/sources`)).json()) as Sources;
    expect(errors.map((e) => [e.file, e.message.replace(/\$ref to .*op\.yaml/, '$ref to op.yaml')])).to.deep.equal([
      [doc, "skipped GET /elsewhere: $ref to op.yaml: it is outside the document's folder (#/paths/~1elsewhere/get)"],
      [doc, "skipped GET /bad: REQUIRED must have required property 'responses' at line 9, column 10 (#/paths/~1bad/get)"],
    ]);
    expect(server!.stderr()).to.contain(`${doc}: skipped GET /bad:`);
  });

  it('checks requests against their operations with --validate, and with SNIPPETKIT_MOCK_VALIDATE', async () => {
    const data = join(temp.dir, 'mocks.sqlite');
    for (const [flags, env] of [[['--validate'], {}], [[], { SNIPPETKIT_MOCK_VALIDATE: 'true' }]] as const) {
      server = await startServerProcess(['serve-mocks', '--port', '0', '--data', data, '--openapi', PETSTORE.pathname, ...flags], env);
      const res = await fetch(`${server.url}/endpoint/pets?limit=ten`);
      expect(res.status).to.equal(400);
      const body = (await res.json()) as { errors: unknown[] };
      expect(body.errors).to.deep.equal([
        { in: 'query', name: 'limit', path: '/limit', rule: 'type', expected: 'integer', message: 'must be integer' },
      ]);
      expect(await status('pets?limit=10')).to.equal(200);
      await server.stop();
      server = undefined;
    }
  });

  it("with --base-path alone, answers the operations under the document's server path", async () => {
    const data = join(temp.dir, 'mocks.sqlite');
    server = await startServerProcess(['serve-mocks', '--port', '0', '--data', data, '--openapi', PETSTORE.pathname, '--base-path']);
    expect((await fetch(`${server.url}/v1/pets/7`)).status).to.equal(200);
    expect(await status('pets/7')).to.equal(200);
    expect(server.stdout()).to.contain('endpoints also at /v1/…');
  });

  it('refuses a base path under the routes the server keeps, naming them', async () => {
    const data = join(temp.dir, 'm.sqlite');
    const given = await runCli(['serve-mocks', '--port', '0', '--data', data, '--base-path', '/api/v3']);
    expect(given.code).to.equal(2);
    expect(given.stderr).to.include("'/api/v3' is under /api, which the mock server keeps for itself");
    const swagger = new URL('../../fixtures/openapi/petstore-expanded-2.0.yaml', import.meta.url).pathname;
    const documented = await runCli(['serve-mocks', '--port', '0', '--data', data, '--openapi', swagger, '--base-path']);
    expect(documented.code).to.equal(2);
    expect(documented.stderr).to.include(`--base-path: the base path of ${swagger} is under /api, which the mock server keeps for itself`);
  });

  it('refuses to start when the file is not there', async () => {
    const data = join(temp.dir, 'm.sqlite');
    const run = await runCli(['serve-mocks', '--port', '0', '--data', data, '--openapi', 'nope.yaml']);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('--openapi nope.yaml: no such file');
  });
});
