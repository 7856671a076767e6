import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { startStubServer } from './mock-stub-server.js';

describe('snippetkit mock add: the record it sends', function () {
  this.timeout(60_000); // each CLI run takes seconds on a loaded 2-core machine
  let temp: ReturnType<typeof tempDir>;
  let stub: Awaited<ReturnType<typeof startStubServer>>;
  const cli = (args: string[], input?: string) => runCli(['mock', ...args, '--server', stub.url], {}, input);
  const sent = () => stub.received.map((r) => ({ route: `${r.method} ${r.url}`, record: JSON.parse(r.body) }));

  before(async () => {
    temp = tempDir();
    // answers a save as the mock API does: 201 and the record
    stub = await startStubServer(({ body }) => ({ status: 201, json: { success: true, ...JSON.parse(body) } }));
  });
  beforeEach(() => stub.received.splice(0));
  after(async () => {
    await stub.close();
    temp.cleanup();
  });

  function file(name: string, text: string): string {
    const path = join(temp.dir, name);
    writeFileSync(path, text);
    return path;
  }

  it('sends each flag as its field, with FILE as the data, and prints the URL of the path', async () => {
    const data = file('user.json', '{"id":"{{params.id}}"}');
    const args = ['add', 'user', data, '--path', '/users/:id', '--method', 'get', '-m', 'PUT', '--method', 'Get'];
    args.push('--template', '--status', '202', '--delay', '100-400', '--fault', 'reset', '--fault-rate', '0.2');
    const result = await cli([...args, '-H', 'X-Id: {{uuid}}']);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.equal(`${stub.url}/endpoint/users/:id\n`);
    expect(sent()).to.deep.equal([
      {
        route: 'PUT /api/endpoint/add',
        record: {
          name: 'user',
          data: { id: '{{params.id}}' },
          path: 'users/:id',
          methods: ['GET', 'PUT'],
          template: true,
          statusCode: 202,
          delay: { min: 100, max: 400 },
          headers: { 'X-Id': '{{uuid}}' },
          fault: 'reset',
          faultRate: 0.2,
        },
      },
    ]);
  });

  it('sends a single --delay as a number of milliseconds, as before', async () => {
    const result = await cli(['add', 'slow', file('slow.json', '[]'), '--delay', '250']);
    expect(result.code, result.stderr).to.equal(0);
    expect(sent()[0]!.record).to.deep.equal({ name: 'slow', data: [], delay: 250 });
  });

  it('sends --body-file as a text body, byte for byte, instead of data', async () => {
    const xml = '<feed>\n  <entry id="1"/>\n</feed>\n';
    const args = ['add', 'feed', '--body-file', file('feed.xml', xml), '-H', 'Content-Type: application/xml'];
    const result = await cli(args);
    expect(result.code, result.stderr).to.equal(0);
    const headers = { 'Content-Type': 'application/xml' };
    expect(sent()[0]!.record).to.deep.equal({ name: 'feed', body: xml, headers });
  });

  it('sends the record of --endpoint less read-only fields, the flags over it, replacing with --force', async () => {
    // what `mock get --json` adds: a saved answer can be edited and sent back
    const readOnly = { success: true, hits: 3, lastCall: null, created: 't', updated: 't', url: 'http://h/endpoint/x' };
    const record = {
      name: 'user',
      path: 'people/:id',
      methods: ['GET'],
      data: { from: 'file' },
      headers: { 'x-env': 'file', 'X-Keep': 'yes' },
      responses: [{ when: { method: 'PUT' }, statusCode: 204 }],
      pick: 'sequence',
    };
    const saved = file('user.json', JSON.stringify({ ...record, ...readOnly }));
    const args = ['add', 'user', '--endpoint', saved, '--force'];
    const result = await cli([...args, '--status', '201', '--path', 'users/:id', '-H', 'X-Env: flag']);
    expect(result.code, result.stderr).to.equal(0);
    expect(sent()).to.deep.equal([
      {
        route: 'PUT /api/endpoint/user',
        record: {
          ...record,
          path: 'users/:id',
          statusCode: 201,
          headers: { 'X-Keep': 'yes', 'X-Env': 'flag' },
        },
      },
    ]);
  });

  it('reads --endpoint - from standard input, naming the endpoint NAME when the record has no name', async () => {
    const args = ['add', 'piped', '--endpoint', '-', '--body-file', file('t.txt', 'hi')];
    const result = await cli(args, '{"statusCode":418}');
    expect(result.code, result.stderr).to.equal(0);
    expect(sent()[0]!.record).to.deep.equal({ name: 'piped', statusCode: 418, body: 'hi' });
  });

  const USAGE: [string, string[], string][] = [
    ['a delay range that ends below its start', ['d.json', '--delay', '400-100'], 'the range 400-100 starts above'],
    ['a delay that is no number', ['d.json', '--delay', 'fast'], 'must be milliseconds (250) or a range MIN-MAX'],
    ['an unknown fault', ['d.json', '--fault', 'boom'], 'Allowed choices are reset, empty, malformed, hang'],
    ['a fault rate above 1', ['d.json', '--fault', 'hang', '--fault-rate', '1.5'], 'must be a number from 0 to 1'],
    ['a fault rate without a fault', ['d.json', '--fault-rate', '0.5'], '--fault-rate needs --fault'],
    ['a method that is no token', ['d.json', '--method', 'G T'], "'G T' is not an HTTP method name"],
    ['FILE and --endpoint', ['d.json', '--endpoint', 'e.json'], 'give FILE (the data) or --endpoint FILE'],
    ['FILE and --body-file', ['d.json', '--body-file', 'b.txt'], 'give FILE (JSON data) or --body-file FILE'],
    ['neither FILE, --body-file nor --endpoint', [], 'give FILE.json with the data to answer, --body-file FILE'],
    ['--endpoint naming another endpoint', ['--endpoint', 'other.json'], 'names the endpoint "other", not x'],
  ];
  for (const [what, args, message] of USAGE) {
    it(`refuses ${what} with exit code 2 and sends nothing`, async () => {
      file('d.json', '{}');
      file('other.json', '{"name":"other","data":1}');
      const paths = args.map((arg) => (/\.(json|txt)$/.test(arg) ? join(temp.dir, arg) : arg));
      const result = await cli(['add', 'x', ...paths]);
      expect(result.code, result.stderr).to.equal(2);
      expect(result.stderr).to.include(message);
      expect(stub.received).to.deep.equal([]);
    });
  }
});
