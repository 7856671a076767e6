import { expect } from 'chai';
import { runCli, useMockProcess } from '../../helpers/cli.js';

// `snippetkit mock log` names the bin whose page made a request (X-Snippetkit-Bin, src/shared/bin-claim.ts).
describe('snippetkit mock log: the bin that made each request', function () {
  this.timeout(60_000); // each CLI run takes seconds on a loaded 2-core machine
  const server = useMockProcess();

  it('ends the line of a bin’s request with `from bin`, and says nothing of others, nor of a claim that is no bin', async () => {
    const add = await fetch(`${server.url}/api/endpoint/add`, { method: 'PUT', body: JSON.stringify({ name: 'crew', data: [] }) });
    expect(add.status).to.equal(201);
    await fetch(`${server.url}/endpoint/crew?n=1`, { headers: { 'X-Snippetkit-Bin': 'fumugi/3' } });
    await fetch(`${server.url}/endpoint/crew?n=2`);
    await fetch(`${server.url}/endpoint/crew?n=3`, { headers: { 'X-Snippetkit-Bin': 'FUMUGI/3' } });
    const result = await runCli(['mock', 'log', 'crew'], { SNIPPETKIT_MOCK_SERVER: server.url, NO_COLOR: '1' });
    expect(result.code, result.stderr).to.equal(0);
    const lines = result.stdout.split('\n').filter((line) => line.includes(' GET /endpoint/crew'));
    expect(lines.map((line) => line.replace(/^\S+ /, ''))).to.deep.equal([
      'GET /endpoint/crew?n=1  → 200 default  from bin fumugi/3',
      'GET /endpoint/crew?n=2  → 200 default',
      'GET /endpoint/crew?n=3  → 200 default',
    ]);
  });
});
