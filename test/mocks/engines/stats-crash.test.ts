import { expect } from 'chai';
import { join } from 'node:path';
import { startServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';
import { readSavedStats } from './saved-stats.js';

describe('mock request logs after kill -9', function () {
  this.timeout(60_000);

  it('keeps every request answered before the kill once its batch is in the file, and the --log-size', async () => {
    const temp = tempDir();
    try {
      const file = join(temp.dir, 'mocks.sqlite');
      const args = ['serve-mocks', '--port', '0', '--data', file, '--log-size', '5'];
      const server = await startServerProcess(args);
      const answeredAt: number[] = [];
      try {
        const add = await fetch(`${server.url}/api/endpoint/add`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'hook', data: { ok: true } }),
        });
        expect(add.status).to.equal(201);
        for (let n = 1; n <= 7; n++) {
          const res = await fetch(`${server.url}/endpoint/hook?n=${n}`, { method: 'POST', body: `payload ${n}` });
          expect(res.status).to.equal(200);
          answeredAt.push(Date.now());
        }
        // Observable, not a sleep: the batch holding the last answered request is in the file.
        const saved = await readSavedStats(file);
        try {
          await until(async () => (await saved.stats('hook'))?.hits === 7);
          // The documented window is the 200 ms batch interval; 5x and more for a loaded machine.
          expect(Date.now() - answeredAt.at(-1)!).to.be.below(2000);
        } finally {
          await saved.close();
        }
      } finally {
        server.child.kill('SIGKILL');
        await server.stop();
      }

      const restarted = await startServerProcess(args);
      try {
        const record = (await (await fetch(`${restarted.url}/api/endpoint/hook`)).json()) as {
          hits: number;
          lastCall: string;
        };
        expect(record.hits).to.equal(7);
        expect(Date.parse(record.lastCall)).to.be.closeTo(answeredAt.at(-1)!, 10_000);
        const { requests } = (await (await fetch(`${restarted.url}/api/endpoint/hook/requests`)).json()) as {
          requests: { url: string; body: string }[];
        };
        expect(requests.map((r) => `${r.url} ${r.body}`)).to.deep.equal(
          [7, 6, 5, 4, 3].map((n) => `/endpoint/hook?n=${n} payload ${n}`),
        );
      } finally {
        await restarted.stop();
      }
    } finally {
      temp.cleanup();
    }
  });
});
