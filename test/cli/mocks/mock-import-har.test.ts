import { expect } from 'chai';
import { runCli, useMockProcess } from '../../helpers/cli.js';
import { EXIT } from '../../../src/cli/common/errors.js';

const entry = (url: string, text: string, headers: [string, string][] = [['Content-Type', 'application/json']]) => ({
  request: { method: 'GET', url, headers: [] },
  response: {
    status: 200,
    headers: headers.map(([name, value]) => ({ name, value })),
    content: { size: text.length, text },
  },
});
const har = (...entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } });

describe('snippetkit mock import of a HAR file', function () {
  this.timeout(60_000); // several CLI runs: seconds each on a loaded 2-core machine
  const server = useMockProcess();
  const cli = (args: string[]) => runCli(['mock', 'import', ...args, '--server', server.url]);
  const names = async () =>
    ((await (await fetch(`${server.url}/api/endpoints`)).json()) as { endpoints: { name: string }[] }).endpoints
      .map((e) => e.name)
      .sort();

  it('imports the answers of the --host only, counting the others, keeping cookies with --record-cookies', async () => {
    const file = server.file(
      'two-hosts.har',
      har(
        entry('http://api.test/a', '{"a":1}', [['Content-Type', 'application/json'], ['Set-Cookie', 's=1']]),
        entry('http://other.test/b', '"b"'),
        entry('http://other.test/c', '"c"'),
      ),
    );
    const result = await cli([file, '--host', 'api.test', '--record-cookies']);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stderr).to.contain(`${file}: skipped 2 entries for other hosts than api.test (--host)`);
    expect(result.stderr).to.contain(`imported 1 endpoints from ${file}: 1 created, 0 replaced`);
    const res = await fetch(`${server.url}/endpoint/a?any=query`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('set-cookie')).to.equal('s=1');
    expect(await res.text()).to.equal('{"a":1}');
  });

  it('names the file and the problem of a malformed HAR, exits with the file code and stores nothing', async () => {
    const before = await names();
    const cases: [string, string][] = [
      [
        har(entry('http://api.test/x', '1'), { request: { method: 'GET' }, response: {} }),
        'log.entries[1].request has no method and url',
      ],
      ['{"log": {"entries": [', 'is not valid JSON'],
      [har(entry('data:text/plain,hi', 'hi')), 'holds no answer from any host to import'],
    ];
    for (const [text, message] of cases) {
      const file = server.file('broken.har', text);
      const result = await cli([file]);
      expect(result.code, result.stderr).to.equal(EXIT.file);
      expect(result.stderr).to.contain(file).and.to.contain(message);
    }
    expect(await names()).to.deep.equal(before);
  });

  it('refuses --host and --record-cookies for a file that is not a HAR, sending nothing', async () => {
    const before = await names();
    const file = server.file('records.json', '[{"name": "plain", "data": 1}]');
    const result = await cli([file, '--host', 'api.test']);
    expect(result.code).to.equal(EXIT.usage);
    expect(result.stderr).to.contain(`--host and --record-cookies are for HAR files, and ${file} holds none`);
    expect(await names()).to.deep.equal(before);
  });
});
