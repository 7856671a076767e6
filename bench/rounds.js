// Paired rounds: the server under test and its baseline measured back to back, the order alternating
// each round, so drift in the load of a shared machine hits both. Rows give medians over the rounds
// and the median and range of the per-round ratios (a ratio within one pair is steadier than either figure).

/** Paired rounds per row; 6 as in issue 12's figures. BENCH_ROUNDS=2 for a quick look. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);

/** Runs `measure(targets.subject)` and `measure(targets.base)` in `rounds` pairs; returns both lists of runs. */
export async function paired(measure, targets, rounds = ROUNDS) {
  const runs = { subject: [], base: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['subject', 'base'] : ['base', 'subject'];
    for (const which of order) runs[which].push(await measure(targets[which]));
  }
  return runs;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median of `key` over one side's runs. */
function mid(runs, key) {
  return median(runs.map((run) => run[key]));
}

/** "0.74 (0.70–0.80)": the median of per-round ratios, then their range. */
function ratioCell(runs, ratio) {
  const ratios = runs.subject.map((subject, i) => ratio(subject, runs.base[i]));
  const fixed = (n) => n.toFixed(2);
  return `${fixed(median(ratios))} (${fixed(Math.min(...ratios))}–${fixed(Math.max(...ratios))})`;
}

/**
 * A row against bare node:http sending the same bytes (runs from `load`). Both ratios read "higher is
 * better, 1 = as fast as bare": CPU is bare µs / ours, req/s is ours / bare.
 */
export function versusBare(title, runs, target = '-') {
  return {
    benchmark: title,
    'CPU µs/req': mid(runs.subject, 'cpuUs').toFixed(1),
    'bare µs/req': mid(runs.base, 'cpuUs').toFixed(1),
    'CPU ×': ratioCell(runs, (subject, base) => base.cpuUs / subject.cpuUs),
    'req/s': Math.round(mid(runs.subject, 'rps')),
    'bare req/s': Math.round(mid(runs.base, 'rps')),
    'req/s ×': ratioCell(runs, (subject, base) => subject.rps / base.rps),
    'p50 ms': mid(runs.subject, 'p50'),
    'p99 ms': mid(runs.subject, 'p99'),
    'bare p99 ms': mid(runs.base, 'p99'),
    target,
  };
}

/** A p50 latency row against a baseline of ours (runs hold `p50Us`); the ratio is subject / base, lower is better. */
export function versusBase(title, runs, target = '-') {
  const digits = mid(runs.base, 'p50Us') < 10 ? 3 : 1;
  return {
    benchmark: title,
    'p50 µs': mid(runs.subject, 'p50Us').toFixed(digits),
    'base p50 µs': mid(runs.base, 'p50Us').toFixed(digits),
    'p50 ×': ratioCell(runs, (subject, base) => subject.p50Us / base.p50Us),
    target,
  };
}
