import { expect } from 'chai';
import { runCli, useMockProcess } from '../../helpers/cli.js';

// Every field of the record (docs/mock-api.md), each `when` part and each answer field in some response.
const ORDERS = {
  path: 'orders/:id',
  methods: ['GET', 'PUT', 'POST'],
  statusCode: 200,
  data: { id: '{{params.id}}' },
  headers: { 'X-Request-Id': '{{uuid}}' },
  delay: { min: 10, max: 20 },
  template: true,
  fault: 'hang',
  faultRate: 0.1,
  pick: 'first-match',
  responses: [
    { when: { method: 'PUT' }, statusCode: 204 },
    { when: { params: { id: '7' }, query: { role: ['admin', 'root'] } }, data: { admin: true } },
    { when: { headers: { 'x-fail': '1' } }, fault: 'reset', faultRate: 0.25 },
    { when: { body: { kind: 'csv' } }, body: 'id\n{{params.id}}', headers: { 'Content-Type': 'text/csv' }, delay: 5 },
  ],
};
const ORDERS_SHOWN = [
  'orders  status 200  delay 10-20 ms  hits 0',
  'url       URL',
  'path      orders/:id',
  'methods   GET, PUT, POST',
  'template  on: strings in data, body and headers are rendered per request',
  'fault     hang on 10% of requests',
  'header X-Request-Id: {{uuid}}',
  '{',
  '  "id": "{{params.id}}"',
  '}',
  '',
  'responses (4, pick first-match)',
  '#1 PUT → 204',
  '   status 204',
  '#2 id=7 · ?role=admin|root → 200 JSON',
  '   data',
  '   {',
  '     "admin": true',
  '   }',
  '#3 x-fail: 1 → fault reset',
  '   fault reset on 25% of requests',
  '#4 body contains {kind} → 200 text',
  '   body contains {"kind":"csv"}',
  '   delay 5 ms',
  '   header Content-Type: text/csv',
  '   body',
  '   id',
  '   {{params.id}}',
  '',
];

describe('snippetkit mock add and get: the new record fields against a real server', function () {
  this.timeout(60_000); // each CLI run takes seconds on a loaded 2-core machine
  const server = useMockProcess();
  const cli = (args: string[]) => runCli(['mock', ...args], { SNIPPETKIT_MOCK_SERVER: server.url });

  async function record(name: string): Promise<Record<string, unknown>> {
    const got = await cli(['get', name, '--json']);
    expect(got.code, got.stderr).to.equal(0);
    return JSON.parse(got.stdout) as Record<string, unknown>;
  }

  it('saves every flag as its field, and lists the path and methods', async () => {
    const args = ['add', 'user', server.file('user.json', '{"id":"{{params.id}}"}'), '--path', 'users/:id', '-m', 'get'];
    args.push('-m', 'put', '--template', '--delay', '100-400', '--fault', 'reset', '--fault-rate', '0.2');
    const added = await cli([...args, '-H', 'X-Id: {{uuid}}', '--status', '201']);
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout).to.equal(`${server.url}/endpoint/users/:id\n`);
    expect(await record('user')).to.deep.include({
      path: 'users/:id',
      methods: ['GET', 'PUT'],
      template: true,
      statusCode: 201,
      delay: { min: 100, max: 400 },
      headers: { 'X-Id': '{{uuid}}' },
      fault: 'reset',
      faultRate: 0.2,
      data: { id: '{{params.id}}' },
    });
    const list = (await cli(['list'])).stdout;
    expect(list).to.match(/\nuser\s+users\/:id\s+GET,PUT\s+201\s+100-400 ms\s+0 /);
  });

  it('saves --body-file as the text body', async () => {
    const csv = server.file('p.csv', 'id,name\n1,Ada\n');
    const added = await cli(['add', 'csv', '--body-file', csv, '-H', 'Content-Type: text/csv']);
    expect(added.code, added.stderr).to.equal(0);
    expect(await record('csv')).to.deep.include({ body: 'id,name\n1,Ada\n', headers: { 'Content-Type': 'text/csv' } });
  });

  it('saves an --endpoint record with its responses, shown each with its condition', async () => {
    const login = {
      methods: ['POST'],
      statusCode: 401,
      data: { error: 'wrong password' },
      responses: [{ when: { body: { password: 'secret' } }, statusCode: 200, data: { token: 't' } }],
      pick: 'first-match',
    };
    const added = await cli(['add', 'login', '--endpoint', server.file('login.json', JSON.stringify(login))]);
    expect(added.code, added.stderr).to.equal(0);
    expect(await record('login')).to.deep.include(login);
    const shown = await cli(['get', 'login']);
    expect(shown.stdout).to.include('methods   POST\n');
    const response = 'responses (1, pick first-match)\n#1 body contains {password} → 200 JSON\n   body contains {"password":"secret"}\n   status 200\n';
    expect(shown.stdout).to.include(response);
  });

  it('round-trips mock get --json through --endpoint', async () => {
    const saved = server.file('saved.json', JSON.stringify(await record('login')));
    const replaced = await cli(['add', 'login', '--endpoint', saved, '--force', '--status', '403']);
    expect(replaced.code, replaced.stderr).to.equal(0);
    expect(await record('login')).to.include({ statusCode: 403, pick: 'first-match' });
  });

  it('shows every field of a whole record, each response with its condition', async () => {
    const added = await cli(['add', 'orders', '--endpoint', server.file('orders.json', JSON.stringify(ORDERS))]);
    expect(added.code, added.stderr).to.equal(0);
    const shown = await cli(['get', 'orders']);
    expect(shown.code, shown.stderr).to.equal(0);
    expect(shown.stdout).to.equal(ORDERS_SHOWN.join('\n').replace('URL', `${server.url}/endpoint/orders/:id`));
  });

  it('stores --delay 100-400 as a range, drawn per request within it', async () => {
    const added = await cli(['add', 'slow', server.file('slow.json', '{}'), '--delay', '100-400']);
    expect(added.code, added.stderr).to.equal(0);
    expect((await record('slow')).delay).to.deep.equal({ min: 100, max: 400 });
    const started = performance.now();
    expect((await fetch(`${server.url}/endpoint/slow`)).status).to.equal(200);
    expect(performance.now() - started).to.be.at.least(95); // timers may fire a hair early; no upper bound here
    expect((await cli(['get', 'slow'])).stdout).to.match(/^slow {2}status 200 {2}delay 100-400 ms {2}hits 1\n/);
  });

  it('stores --fault hang --fault-rate 0.5, shown as the share of requests', async () => {
    const added = await cli(['add', 'stuck', server.file('stuck.json', '{}'), '--fault', 'hang', '--fault-rate', '0.5']);
    expect(added.code, added.stderr).to.equal(0);
    expect(await record('stuck')).to.include({ fault: 'hang', faultRate: 0.5 });
    expect((await cli(['get', 'stuck'])).stdout).to.include('\nfault     hang on 50% of requests\n');
  });

  it('passes on the server refusing a field of an --endpoint record, which stores nothing', async () => {
    const bad = { data: 1, responses: [{ statusCode: 200 }, { when: { query: 5 } }] };
    const result = await cli(['add', 'bad', '--endpoint', server.file('bad.json', JSON.stringify(bad))]);
    expect(result.code).to.equal(9);
    expect(result.stderr).to.match(/^snippetkit: the mock server refused it: .*responses\[1\]\.when\.query/);
    expect((await cli(['get', 'bad'])).code).to.equal(6);
  });
});
