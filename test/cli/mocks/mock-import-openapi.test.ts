import { expect } from 'chai';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, useMockProcess } from '../../helpers/cli.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/openapi');

describe('snippetkit mock import of an OpenAPI document', function () {
  this.timeout(60_000); // several CLI runs: seconds each on a loaded 2-core machine
  const server = useMockProcess();
  const cli = (args: string[]) => runCli(['mock', 'import', ...args, '--server', server.url]);
  const names = async () =>
    ((await (await fetch(`${server.url}/api/endpoints`)).json()) as { endpoints: { name: string }[] }).endpoints
      .map((e) => e.name)
      .sort();

  it('makes one endpoint per operation, found by the document\'s openapi key', async () => {
    const file = join(server.dir, 'petstore.yaml');
    copyFileSync(join(FIXTURES, 'petstore-3.0.yaml'), file);
    const result = await cli([file]);
    expect(result.stderr).to.contain(`imported 3 endpoints from ${file}: 3 created, 0 replaced`);
    expect(result.code).to.equal(0);
    expect(await names()).to.deep.equal(['createPets', 'listPets', 'showPetById']);
    const res = await fetch(`${server.url}/endpoint/pets/7`, { headers: { prefer: 'code=500' } });
    expect(res.status).to.equal(500);
    expect(await res.json()).to.deep.equal({ code: 0, message: 'string' });
  });

  it('refuses the same names again without --replace, and replaces them with it', async () => {
    const file = join(FIXTURES, 'petstore-3.0.yaml');
    const refused = await cli([file]);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.contain(`${file} #0 (listPets)`);
    const replaced = await cli([file, '--replace']);
    expect(replaced.stderr).to.contain('0 created, 3 replaced');
  });

  it('with --validate, marks the imported operations "validate": true, so requests are checked', async () => {
    const file = join(FIXTURES, 'petstore-3.0.yaml');
    const result = await cli([file, '--replace', '--validate']);
    expect(result.code, result.stderr).to.equal(0);
    const res = await fetch(`${server.url}/endpoint/pets?limit=many`);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { errors: { name: string }[] }).errors[0]!.name).to.equal('limit');
    await cli([file, '--replace']);
    expect((await fetch(`${server.url}/endpoint/pets?limit=many`)).status).to.equal(200);
  });

  it('names the file and the problem of an invalid document, and imports nothing', async () => {
    const before = await names();
    const file = server.file('broken.yaml', 'openapi: 3.0.3\ninfo: {title: x}\npaths: {}\n');
    const result = await cli([file]);
    expect(result.code).to.not.equal(0);
    expect(result.stderr).to.contain(`${file} is not a valid OpenAPI document`);
    expect(result.stderr).to.contain("must have required property 'version'");
    expect(await names()).to.deep.equal(before);
  });

  it('with --openapi, refuses a file of endpoint records', async () => {
    const file = server.file('records.json', '[{"name": "a", "data": 1}]');
    const result = await cli([file, '--openapi']);
    expect(result.code).to.not.equal(0);
    expect(result.stderr).to.contain(`${file} is not an OpenAPI document`);
  });

  describe('uploads no file from outside the document\'s folder (the Files gate)', () => {
    const SECRET = 'the secret of the client';
    // Through a schema: a `$ref` key in example data is data, never read.
    const answering = (schema: string) =>
      'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths:\n  /stolen:\n    get:\n      responses:\n' +
      `        '200':\n          description: ok\n          content: { text/plain: { schema: ${schema} } }\n`;

    it('refuses a $ref to ../secret.txt, to an absolute path, through a link, or in a referenced file', async () => {
      const secret = server.file('secret.txt', SECRET);
      const api = join(server.dir, 'api');
      mkdirSync(api);
      symlinkSync(secret, join(api, 'link.txt'));
      writeFileSync(join(api, 'nested.yaml'), "text: { $ref: '../secret.txt' }\n");
      const before = await names();
      const cases: [string, string][] = [
        ["'../secret.txt'", `$ref to ${secret}: it is outside the document's folder`],
        [`'${secret}'`, `$ref to ${secret}: it is outside the document's folder`],
        ["'link.txt'", `$ref to ${join(api, 'link.txt')}: it leads outside the document's folder through a link`],
        ["'nested.yaml#/text'", `$ref to ${secret}: it is outside the document's folder`],
      ];
      for (const [ref, why] of cases) {
        const file = join(api, 'api.yaml');
        writeFileSync(file, answering(`{ $ref: ${ref} }`));
        const result = await cli([file]);
        expect(result.code, ref).to.not.equal(0);
        expect(result.stderr, ref).to.contain(`${file} cannot be read: ${why}`);
        expect(result.stderr + result.stdout).to.not.contain(SECRET);
      }
      expect(await names()).to.deep.equal(before);
    });

    it('refuses a record file in an imported folder that is a link leading out of it', async () => {
      server.file('secret.json', JSON.stringify({ name: 'stolen', body: SECRET }));
      const folder = join(server.dir, 'records');
      mkdirSync(folder);
      writeFileSync(join(folder, 'fine.json'), '{"data": 1}');
      symlinkSync(join(server.dir, 'secret.json'), join(folder, 'stolen.json'));
      const before = await names();
      const result = await cli([folder]);
      expect(result.code).to.not.equal(0);
      expect(result.stderr).to.contain(`cannot read ${join(folder, 'stolen.json')}: it leads outside ${folder} through a link`);
      expect(await names()).to.deep.equal(before);
    });
  });
});
