import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../../mocks/server.js';

// `mock verify` and `mock reset` against a real mock server: the exit codes a shell or CI script reads.
describe('snippetkit mock verify and mock reset', function () {
  this.timeout(60_000); // each CLI run takes seconds on a loaded 2-core machine
  let server: TestMockServer;
  const cli = (args: string[]) => runCli(['mock', ...args, '--server', server.url]);

  before(async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'hook', path: 'hooks/:id', data: { ok: true } });
    const headers = { 'content-type': 'application/json', 'x-trace': 'a1' };
    await server.fetch('/endpoint/hooks/1?kind=paid', { method: 'POST', body: '{"ok":false,"n":1}', headers });
  });
  after(() => server.close());

  it('exits 0 and says how many matched when the count holds', async () => {
    const result = await cli(['verify', 'hook', '--count', '1', '--method', 'post', '--query', 'kind=paid', '-H', 'X-Trace: a1', '--body-contains', '{"n":1}']);
    expect([result.code, result.stdout, result.stderr]).to.deep.equal([0, 'verified: 1 matching request\n', '']);
  });

  it('exits 1 with what was expected and the near misses, field by field', async () => {
    const result = await cli(['verify', 'hook', '--count', '1', '--body-contains', '{"ok":true}', '--path', 'hooks/2']);
    expect(result.code).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.equal(
      [
        'snippetkit: expected exactly 1 request matching {"name":"hook","path":"hooks/2","bodyContains":"{\\"ok\\":true}"}, got 0',
        '  closest requests:',
        '    POST /endpoint/hooks/1?kind=paid  (hook)',
        '      path: expected "hooks/2", got "hooks/1"',
        '      body: expected "contains {\\"ok\\":true}", got "{\\"ok\\":false,\\"n\\":1}"',
        '',
      ].join('\n'),
    );
  });

  it('prints the answer as JSON with --json, and still exits 1 on a miss', async () => {
    const result = await cli(['verify', '--at-least', '2', '--json']);
    expect(result.code).to.equal(1);
    expect(JSON.parse(result.stdout)).to.include({ success: false, matched: 1 });
  });

  it('refuses a --query without = and names a missing endpoint', async () => {
    const bad = await cli(['verify', 'hook', '--query', 'kind']);
    expect([bad.code, bad.stderr]).to.deep.equal([2, 'snippetkit: --query takes KEY=VALUE, got "kind"\n']);
    const missing = await cli(['verify', 'nope']);
    expect(missing.code).to.equal(6);
  });

  it('reads --body-schema from a file: exit 0 when the body validates, 1 with the schema error when not', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = join(dir, 'hook.schema.json');
      writeFileSync(file, JSON.stringify({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } } }));
      const ok = await cli(['verify', 'hook', '--count', '1', '--body-schema', file]);
      expect([ok.code, ok.stdout, ok.stderr]).to.deep.equal([0, 'verified: 1 matching request\n', '']);
      writeFileSync(file, JSON.stringify({ type: 'object', properties: { n: { minimum: 2 } } }));
      const miss = await cli(['verify', 'hook', '--body-schema', file]);
      expect(miss.code).to.equal(1);
      expect(miss.stderr).to.contain('\n    POST /endpoint/hooks/1?kind=paid  (hook)\n      body /n: expected "must be >= 2", got "1"\n');
    } finally {
      cleanup();
    }
  });

  it('exits 7 naming a --body-schema file that is missing or not JSON, before calling the server', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const missing = await cli(['verify', '--body-schema', join(dir, 'none.json')]);
      expect(missing.code).to.equal(7);
      expect(missing.stderr).to.match(/^snippetkit: cannot read .*none\.json: /);
      writeFileSync(join(dir, 'bad.json'), '{"type":');
      const bad = await cli(['verify', '--body-schema', join(dir, 'bad.json')]);
      expect(bad.code).to.equal(7);
      expect(bad.stderr).to.match(/^snippetkit: .*bad\.json is not valid JSON: /);
    } finally {
      cleanup();
    }
  });

  it('says what the server refuses of a schema, with exit 9', async () => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(join(dir, 'typo.json'), '{"tpye":"object"}');
      const result = await cli(['verify', '--body-schema', join(dir, 'typo.json')]);
      expect([result.code, result.stderr]).to.deep.equal([9, 'snippetkit: the mock server refused it: bodySchema: strict mode: unknown keyword: "tpye"\n']);
    } finally {
      cleanup();
    }
  });

  it('resets the server: mock reset, then nothing is left to verify', async () => {
    const result = await cli(['reset']);
    expect([result.code, result.stdout]).to.deep.equal([0, 'reset: 1 deleted, 0 from files kept with fresh counters and logs\n']);
    expect(server.store.list()).to.deep.equal([]);
    expect((await cli(['verify'])).code).to.equal(1);
  });
});
