import { expect } from 'chai';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

// A browser sends every cookie of a host to each of its ports: a mock server beside a bin server on
// 127.0.0.1 gets the bins' session cookie with each call a page makes, and must keep it from its logs
// (readable without a key), its templates and a --proxy target (src/http/session-cookie.ts).
describe('the bins’ session cookie on a mock server alone', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'seen', data: '{{headers.cookie}}', template: true });
  });
  afterEach(() => server.close());

  it('reaches no log and no template, header and raw header alike, while other cookies do', async () => {
    const answers = [];
    for (const cookie of ['theme=dark; snippetkit_a1b2c3=secret; lang=en', 'snippetkit_a1b2c3=secret', 'theme=light']) {
      answers.push(await (await server.fetch('/endpoint/seen', { headers: { Cookie: cookie } })).json());
    }
    expect(answers).to.deep.equal(['theme=dark; lang=en', '', 'theme=light']);
    const log = await (await server.fetch('/api/endpoint/seen/requests')).json();
    expect(log.requests.map((r: { headers: Record<string, string> }) => r.headers.cookie)).to.deep.equal([
      'theme=light',
      undefined,
      'theme=dark; lang=en',
    ]);
    expect(JSON.stringify(log)).not.to.include('secret');
  });

  it('is taken out of requests no endpoint answers too', async () => {
    await server.fetch('/endpoint/nothing-here', { headers: { Cookie: 'snippetkit_a1b2c3=secret; x=1' } });
    const unmatched = await (await server.fetch('/api/unmatched')).json();
    expect(JSON.stringify(unmatched)).not.to.include('secret');
    expect(JSON.stringify(unmatched)).to.include('x=1');
  });
});
