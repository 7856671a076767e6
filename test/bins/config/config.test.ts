import { expect } from 'chai';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

// Each of these once started a server that was more open than asked, or one that answered 500s.
describe('snippetkit serve-bins refuses a config that is not what it seems', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(() => temp.cleanup());

  const cases: { name: string; file?: unknown; env?: Record<string, string>; message: (file: string) => string }[] = [
    {
      name: 'a switch given as the string "false" in the file',
      file: { api: { allowAnonymousReadWrite: 'false' } },
      message: (f) => `api.allowAnonymousReadWrite in ${f} is "false", a string; use true or false`,
    },
    {
      name: 'allowAnonymousRead as a string',
      file: { api: { allowAnonymousRead: 'false' } },
      message: (f) => `api.allowAnonymousRead in ${f} is "false", a string; use true or false`,
    },
    {
      name: 'an API key that is a number',
      file: { ownership: { api_key: 12345 } },
      message: (f) => `ownership.api_key in ${f} is 12345, a number; use null or a non-empty string`,
    },
    {
      name: 'an unknown key',
      file: { api: { allowAnonymousWrite: true } },
      message: (f) =>
        `api.allowAnonymousWrite in ${f} is not a setting; ` +
        'the keys there are allowAnonymousRead, allowAnonymousReadWrite',
    },
    {
      name: 'a size that does not parse, in the file',
      file: { 'max-request-size': '5 megs' },
      message: (f) => `max-request-size in ${f} is "5 megs", a string; use a size such as 1MB or 65536`,
    },
    {
      name: 'a size that does not parse, in the environment',
      env: { SNIPPETKIT_MAX_REQUEST_SIZE: 'lots' },
      message: () => 'SNIPPETKIT_MAX_REQUEST_SIZE=lots (environment) is not a size such as 1MB or 65536',
    },
    {
      name: 'a switch in the environment that is not true or false',
      env: { SNIPPETKIT_API_ALLOWANONYMOUSREAD: 'nope' },
      message: () => 'SNIPPETKIT_API_ALLOWANONYMOUSREAD=nope (environment) is not true or false',
    },
    {
      name: 'a cache size in the environment that is not a whole number',
      env: { SNIPPETKIT_CACHE_REVISIONSMB: '-3' },
      message: () => 'SNIPPETKIT_CACHE_REVISIONSMB=-3 (environment) is not a whole number, 0 or more',
    },
    {
      name: 'a misspelt variable, which would be ignored',
      env: { SNIPPETKIT_API_ALLOWANONYMOUSWRITE: 'true' },
      message: () =>
        'SNIPPETKIT_API_ALLOWANONYMOUSWRITE (environment) is not a setting; ' +
        'known ones: SNIPPETKIT_API_ALLOWANONYMOUSREAD, SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE',
    },
    {
      name: 'a section that is not an object',
      file: { cors: '*' },
      message: (f) => `cors in ${f} is "*", a string; use an object`,
    },
  ];
  for (const { name, file, env = {}, message } of cases) {
    it(`exits 2 for ${name}, naming the key, the value and where it came from`, async () => {
      const config = join(temp.dir, 'cfg.json');
      const data = join(temp.dir, 'b.sqlite');
      if (file !== undefined) writeFileSync(config, JSON.stringify(file));
      const args = ['serve-bins', '--port', '0', '--data', data, ...(file === undefined ? [] : ['--config', config])];
      const result = await runCli(args, env);
      expect(result.stderr).to.equal(`snippetkit: ${message(config)}\n`);
      expect(result.code).to.equal(2);
      expect(existsSync(data), 'nothing opened').to.equal(false);
    });
  }

  it('places a JSON error in the config file by line and column', async () => {
    const config = join(temp.dir, 'cfg.json');
    writeFileSync(config, '{\n  "api": {\n    "allowAnonymousRead" true\n  }\n}');
    const result = await runCli(['serve-bins', '--data', join(temp.dir, 'b.sqlite'), '--config', config]);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.equal(
      `snippetkit: the config file ${config} is not valid JSON: expected ':' but found 't' at line 3, column 26\n`,
    );
  });

  it('takes a size with a unit from the environment and holds bodies to it (the clients\' key set too)', async () => {
    const { startServerProcess } = await import('../../helpers/cli.js');
    const server = await startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'b.sqlite')], {
      SNIPPETKIT_MAX_REQUEST_SIZE: '2kb',
      SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true',
      SNIPPETKIT_API_KEY: 'the clients-only key, not a setting of the server',
    });
    try {
      const save = (size: number) =>
        fetch(`${server.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: 'a'.repeat(size) }) });
      expect((await save(1000)).status).to.equal(200);
      const big = await save(3000);
      expect(big.status).to.equal(413);
      expect(await big.json()).to.deep.equal({ error: 'request body too large (the limit is 2048 bytes)' });
    } finally {
      await server.stop();
    }
  });
});
