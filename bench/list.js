// "My bins" rows: GET /list on a store of 100,000 bins (3 revisions each): page 1, a late page, a
// filter that matches one bin and one that matches none; and the first start on such a file kept as
// Keyv records by an earlier release (moved into the bins' tables, every summary computed once).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, load, log, startChild } from './lib.js';
import { fillBins } from './fill-bins.js';

const BINS = 100_000;
const PER_BIN = 3;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'snippetkit-bench-'));
  try {
    const file = join(dir, 'list.sqlite');
    log(`list: filling ${BINS.toLocaleString('en')} bins`);
    await fillBins(file, BINS * PER_BIN, PER_BIN);
    const started = performance.now();
    const bins = await startChild([CLI, 'serve-bins', '--port', '0', '--data', file]);
    const rows = [{ benchmark: 'list: first start on 100 k bins in Keyv records (moved)', 'p50 ms': Math.round(performance.now() - started) }];
    try {
      for (const [title, path] of [
        ['bin GET /list page 1 (100 k bins)', '/list'],
        ['bin GET /list page 2,000 (100 k bins)', '/list?page=2000'],
        ['bin GET /list?q= one match (100 k bins)', '/list?q=Bin%204242%20'],
        ['bin GET /list?q= no match (100 k bins)', '/list?q=nothing'],
      ]) {
        log(`${title}: measuring`);
        const { cpuUs, rps, p50, p99 } = await load({ url: bins.url + path, pid: bins.pid }, { connections: 1 });
        rows.push({ benchmark: title, 'CPU µs/req': cpuUs.toFixed(1), 'req/s': Math.round(rps), 'p50 ms': p50, 'p99 ms': p99 });
      }
      return rows;
    } finally {
      await bins.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
