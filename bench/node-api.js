// Node API rows (issue 27): `import('snippetkit')`, an in-memory server's start and close, and whether
// ROUNDS of them (default 100) leave handles or heap behind. In a child process with --expose-gc.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { log } from './lib.js';

const run_ = promisify(execFile);

export async function run() {
  const child = fileURLToPath(new URL('./node-api-child.js', import.meta.url));
  const { stdout } = await run_(process.execPath, ['--expose-gc', child], { env: { ...process.env } });
  const got = JSON.parse(stdout);
  log(`node API: ${got.rounds} in-memory mock servers and ${got.rounds} bin servers started and closed`);
  return [
    { benchmark: 'node API: import snippetkit', 'p50 ms': got.importMs.toFixed(0), target: '-' },
    { benchmark: 'node API: startMockServer() in memory', 'p50 ms': got.startMs.toFixed(1), target: '< 50' },
    { benchmark: 'node API: close()', 'p50 ms': got.closeMs.toFixed(1), target: '-' },
    {
      benchmark: `node API: after ${got.rounds} start/close, handles and heap`,
      handles: `${got.handles[0]} → ${got.handles[1]}`,
      'heap KB': `${got.heapKb[0].toFixed(0)} → ${got.heapKb[1].toFixed(0)}`,
      target: 'no growth',
    },
    { benchmark: 'node API: startBinServer() in memory, the first', 'p50 ms': got.bins.firstMs.toFixed(1), target: '< 100' },
    { benchmark: 'node API: startBinServer() in memory', 'p50 ms': got.bins.startMs.toFixed(1), target: '< 100' },
    { benchmark: 'node API: bin server close()', 'p50 ms': got.bins.closeMs.toFixed(1), target: '-' },
    {
      benchmark: `node API: after ${got.rounds} bin server start/close, handles and heap`,
      handles: `${got.bins.handles[0]} → ${got.bins.handles[1]}`,
      'heap KB': `${got.bins.heapKb[0].toFixed(0)} → ${got.bins.heapKb[1].toFixed(0)}`,
      target: 'no growth',
    },
  ];
}
