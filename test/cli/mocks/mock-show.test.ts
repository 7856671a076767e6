import { expect } from 'chai';
import { runCli } from '../../helpers/cli.js';
import { startStubServer, type Answer, type Received } from './mock-stub-server.js';

// A whole record as GET /api/endpoint/<name> answers it (docs/mock-api.md), with a hostile string in a `when`.
const RECORD = {
  success: true,
  name: 'user',
  path: 'users/:id',
  methods: ['GET', 'PUT'],
  statusCode: 200,
  data: { id: '{{params.id}}' },
  delay: { min: 100, max: 400 },
  headers: { 'X-Request-Id': '{{uuid}}' },
  template: true,
  responses: [
    { when: { method: ['PUT'] }, statusCode: 204 },
    { when: { query: { role: ['admin', 'root'] }, headers: { 'x-env': '\x1b[2Jtest' } }, data: { admin: true } },
    { when: { body: { kind: 'a' } }, fault: 'reset', faultRate: 0.25 },
    { body: 'id,name\n1,Ada', headers: { 'Content-Type': 'text/csv' }, delay: 50 },
  ],
  pick: 'sequence',
  fault: 'hang',
  faultRate: 0.1,
  hits: 3,
  lastCall: '2025-01-02T03:04:05.000Z',
  created: '2025-01-01T00:00:00.000Z',
  updated: '2025-01-01T00:00:00.000Z',
  url: 'http://h/endpoint/users/:id',
};

const LOGGED = { headers: { host: 'h' }, body: '', ip: '127.0.0.1', bodyTruncated: false };
// newest first, as the server sends it
const REQUESTS = [
  { ...LOGGED, time: 't3', method: 'GET', url: '/endpoint/users/3', response: 2, status: null, fault: 'reset' },
  { ...LOGGED, time: 't2', method: 'PUT', url: '/endpoint/users/2', response: 0, status: 204 },
  { ...LOGGED, time: 't1', method: 'GET', url: '/endpoint/users/1', response: null, status: 200 },
];

function answer({ method, url }: Received): Answer {
  if (method === 'GET' && url === '/api/endpoint/user') return { status: 200, json: RECORD };
  if (method === 'GET' && url === '/api/endpoint/user/requests') {
    return { status: 200, json: { success: true, name: 'user', requests: REQUESTS } };
  }
  if (method === 'DELETE' && url === '/api/endpoint/user/requests') return { status: 200, json: { success: true } };
  return { status: 404, json: { success: false, message: 'not found' } };
}

describe('snippetkit mock get and log: how the whole record and each answer are shown', function () {
  this.timeout(60_000); // each CLI run takes seconds on a loaded 2-core machine
  let stub: Awaited<ReturnType<typeof startStubServer>>;
  const cli = (args: string[]) => runCli(['mock', ...args, '--server', stub.url]);

  before(async () => {
    stub = await startStubServer(answer);
  });
  beforeEach(() => stub.received.splice(0));
  after(() => stub.close());

  it('shows every field of the record, each response with its condition, strings escaped', async () => {
    const result = await cli(['get', 'user']);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.equal(
      [
        'user  status 200  delay 100-400 ms  hits 3',
        'url       http://h/endpoint/users/:id',
        'path      users/:id',
        'methods   GET, PUT',
        'template  on: strings in data, body and headers are rendered per request',
        'last call 2025-01-02T03:04:05.000Z',
        'fault     hang on 10% of requests',
        'header X-Request-Id: {{uuid}}',
        '{',
        '  "id": "{{params.id}}"',
        '}',
        '',
        'responses (4, pick sequence)',
        '#1 PUT → 204',
        '   status 204',
        '#2 ?role=admin|root · x-env: \\x1b[2Jtest → 200 JSON',
        '   data',
        '   {',
        '     "admin": true',
        '   }',
        '#3 body contains {kind} → fault reset',
        '   body contains {"kind":"a"}',
        '   fault reset on 25% of requests',
        '#4 always → 200 text',
        '   delay 50 ms',
        '   header Content-Type: text/csv',
        '   body',
        '   id,name',
        '   1,Ada',
        '',
      ].join('\n'),
    );
  });

  it('prints the record as the server sent it with --json', async () => {
    const result = await cli(['get', 'user', '--json']);
    expect(JSON.parse(result.stdout)).to.deep.equal(RECORD);
  });

  it('shows which response answered each request, or the fault', async () => {
    const result = await cli(['log', 'user']);
    expect(result.code, result.stderr).to.equal(0);
    const lines = result.stdout.split('\n').filter((line) => line.startsWith('t'));
    expect(lines).to.deep.equal([
      't1 GET /endpoint/users/1  → 200 default',
      't2 PUT /endpoint/users/2  → 204 #1',
      't3 GET /endpoint/users/3  → fault reset, #3',
    ]);
  });

  it('keeps response, status and fault in the --json log', async () => {
    const result = await cli(['log', 'user', '--json']);
    expect(JSON.parse(result.stdout)).to.deep.equal([...REQUESTS].reverse());
  });

  it('clears the log with --clear: DELETE /api/endpoint/<name>/requests', async () => {
    const result = await cli(['log', 'user', '--clear']);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.equal('cleared the request log of user\n');
    expect(stub.received.map((r) => `${r.method} ${r.url}`)).to.deep.equal(['DELETE /api/endpoint/user/requests']);
  });

  it('says there is no such endpoint when --clear gets a 404', async () => {
    const result = await cli(['log', 'nosuch', '--clear']);
    expect(result.code).to.equal(6);
    const hint = '`snippetkit mock list` shows them';
    expect(result.stderr).to.equal(`snippetkit: no endpoint named nosuch at ${stub.url}; ${hint}\n`);
  });
});
