import { expect } from 'chai';
import { copyFileSync } from 'node:fs';
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
});
