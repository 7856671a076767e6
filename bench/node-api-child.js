// Run by node-api.js with --expose-gc: the Node API's import, then ROUNDS in-memory mock servers started,
// used once (an endpoint added and called) and closed, then ROUNDS in-memory bin servers (a bin saved and
// its page read); handles and heap before and after each.
import { get } from 'node:http';

const ROUNDS = Number(process.env.ROUNDS ?? 100);
// node:http without keep-alive: fetch's global pool keeps a record per origin it has talked to, which
// would grow here with each new port whatever the server does.
const call = (url) =>
  new Promise((resolve, reject) => get(url, { agent: false }, (res) => res.resume().on('end', resolve)).on('error', reject));
const t0 = performance.now();
const { startBinServer, startMockServer } = await import('../dist/node/index.js');
const importMs = performance.now() - t0;

const once = async () => {
  const started = performance.now();
  const mocks = await startMockServer();
  const startMs = performance.now() - started;
  await mocks.add({ name: 'a', data: { ok: true } });
  await call(mocks.endpointUrl('a'));
  const closing = performance.now();
  await mocks.close();
  return { startMs, closeMs: performance.now() - closing };
};
const binsOnce = async () => {
  const started = performance.now();
  const bins = await startBinServer();
  const startMs = performance.now() - started;
  const saved = await bins.save({ html: '<p>hi</p>' });
  await call(saved.url);
  const closing = performance.now();
  await bins.close();
  return { startMs, closeMs: performance.now() - closing };
};
const settle = async () => {
  for (let i = 0; i < 3; i++) global.gc();
};
const handles = () => process.getActiveResourcesInfo().filter((kind) => kind !== 'Timeout').length;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

/** One warm-up round (the first start loads what the server loads lazily), then ROUNDS of them. */
async function rounds(round) {
  const first = (await round()).startMs;
  await settle();
  const before = { handles: handles(), heap: process.memoryUsage().heapUsed };
  const starts = [];
  const closes = [];
  for (let i = 0; i < ROUNDS; i++) {
    const { startMs, closeMs } = await round();
    starts.push(startMs);
    closes.push(closeMs);
  }
  await settle();
  const after = { handles: handles(), heap: process.memoryUsage().heapUsed };
  return {
    firstMs: first,
    startMs: median(starts),
    closeMs: median(closes),
    handles: [before.handles, after.handles],
    heapKb: [before.heap / 1024, after.heap / 1024],
  };
}

const mocks = await rounds(once);
const bins = await rounds(binsOnce);
process.stdout.write(JSON.stringify({ rounds: ROUNDS, importMs, ...mocks, bins }));
