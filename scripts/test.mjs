// Runs the test files in groups, several mocha processes side by side (docs/testing.md). Each group is an
// ordinary mocha run with its own throwaway PostgreSQL, Redis and Chromium, so no test needs to know it
// shares the machine; a group's output is printed whole when it ends, then the totals and the time.
//
//   node scripts/test.mjs                  every group, SNIPPETKIT_TEST_JOBS at a time (default: one per core, at least 2)
//   node scripts/test.mjs --group editor   one group (repeat --group for more)
//   node scripts/test.mjs --slowest 20     also list the 20 slowest tests of the run
//   node scripts/test.mjs --files 20       also list the 20 files that took longest (tests and hooks summed)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// Longest first (measured: docs/testing.md), so the slots stay full to the end. A file belongs to the
// first group whose pattern it matches; `rest` takes what none names. The browser tests are two groups
// (the editor's, the other pages'), each about four minutes: as one they were an 8-minute piece that
// held a slot while the others shared the second.
const GROUPS = [
  ['stores', /^test\/(store|scale)\/|^test\/(bins|mocks)\/engines\//],
  ['editor', /^test\/browser\/(editor|live|drafts|run-controls|loop-protect|processors)[.-]/],
  ['pages', /^test\/browser\//],
  // Public OpenAPI descriptions served by real processes (docs/mock-api.md, "Real descriptions"): about
  // 75 s of CPU between mocha and the servers it starts, so it runs beside the other groups rather
  // than lengthening the mocks'. Run when the corpus is there (below).
  ['corpus', /^test\/mocks\/sources\/openapi-corpus/],
  ['mocks', /^test\/mocks\//],
  ['cli', /^test\/cli\//],
  ['bins', /^test\/bins\//],
  ['rest', /^test\//],
];

function testFiles(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function parseArgs(argv) {
  const wanted = [];
  let slowest = 0;
  let files = 0;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--group') wanted.push(argv[++i]);
    else if (argv[i] === '--slowest') slowest = Number(argv[++i]);
    else if (argv[i] === '--files') files = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}: use --group NAME, --slowest N or --files N`);
  }
  const unknown = wanted.filter((name) => !GROUPS.some(([group]) => group === name));
  if (unknown.length > 0) throw new Error(`no group ${unknown.join(', ')}; groups: ${GROUPS.map(([g]) => g).join(', ')}`);
  return { wanted, slowest, files };
}

function groupsOf(files, wanted) {
  const groups = new Map(GROUPS.map(([name]) => [name, []]));
  for (const file of files) groups.get(GROUPS.find(([, pattern]) => pattern.test(file))[0]).push(file);
  return [...groups].filter(([name, list]) => list.length > 0 && (wanted.length === 0 || wanted.includes(name)));
}

/**
 * The corpus of public OpenAPI descriptions is not in the repository: fetched documents may be kept
 * only in shared/ beside it (test/fixtures/openapi-corpus/README.md). Where neither copy is, a whole
 * run leaves the group out and says so on its last line; asked for by name, it runs, and fails naming
 * what is missing.
 */
const CORPUS_PLACES = ['test/fixtures/openapi-corpus', '../shared/openapi-corpus'];
const hasCorpus = () => CORPUS_PLACES.some((dir) => existsSync(join(ROOT, dir, 'stripe/spec3.json')));

const seconds = (ms) => (ms >= 60_000 ? `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s` : `${(ms / 1000).toFixed(1)}s`);

// --exit: a group ends when its tests have, even if a test left a socket or timer open. Processes a test
// left are stopped and reported by the root hooks (test/helpers/root-hooks.ts); --exit keeps any other
// leak from turning into a run that never ends.
function runGroup(name, files, timingsFile) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [join(ROOT, 'node_modules/mocha/bin/mocha.js'), '--exit', '--reporter', join(ROOT, 'test/helpers/timing-reporter.cjs'), ...files],
    { cwd: ROOT, env: { ...process.env, SNIPPETKIT_TEST_TIMINGS: timingsFile }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return {
    child,
    done: new Promise((resolve) => {
      child.on('close', (code, signal) => {
        const text = Buffer.concat(output).toString();
        const count = (word) => Number(new RegExp(`^\\s+(\\d+) ${word}`, 'm').exec(text)?.[1] ?? 0);
        resolve({ name, code: code ?? 1, signal, text, ms: performance.now() - started, passing: count('passing'), failing: count('failing'), pending: count('pending') });
      });
    }),
  };
}

async function main() {
  const { wanted, slowest, files } = parseArgs(process.argv.slice(2));
  // One group per core: with a third on two cores, browser tests ran past mocha's 20 s limit on a busy
  // machine (a measure taken while another suite ran, so not conclusive; docs/testing.md).
  const jobs = Math.max(1, Number(process.env.SNIPPETKIT_TEST_JOBS) || Math.max(2, availableParallelism()));
  const corpusMissing = !wanted.includes('corpus') && !hasCorpus();
  const groups = groupsOf(testFiles('test'), wanted).filter(([name]) => !(name === 'corpus' && corpusMissing));
  const scratch = mkdtempSync(join(tmpdir(), 'snippetkit-test-run-'));
  const started = performance.now();
  const running = new Set();
  const results = [];
  process.on('SIGINT', () => running.forEach((run) => run.child.kill('SIGINT')));
  process.on('SIGTERM', () => running.forEach((run) => run.child.kill('SIGTERM')));

  const queue = [...groups];
  const slot = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [name, files] = next;
      console.log(`▶ ${name}: ${files.length} files`);
      const run = runGroup(name, files, join(scratch, `${name}.json`));
      running.add(run);
      const result = await run.done;
      running.delete(run);
      results.push(result);
      console.log(`\n━━ ${name} ━━ ${result.code === 0 ? 'passed' : 'FAILED'} in ${seconds(result.ms)}\n${result.text}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, groups.length) }, slot));

  const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
  console.log('group      tests    time   result');
  for (const r of results) {
    console.log(`${r.name.padEnd(10)} ${String(r.passing + r.failing).padStart(5)} ${seconds(r.ms).padStart(7)}   ${r.code === 0 ? 'passed' : `FAILED (${r.signal ?? `exit ${r.code}`})`}`);
  }
  if (slowest > 0) printSlowest(timingsOf(scratch, results), slowest);
  if (files > 0) printSlowestFiles(timingsOf(scratch, results), files);
  rmSync(scratch, { recursive: true, force: true });
  const failed = results.filter((r) => r.code !== 0);
  // A CI log often keeps only its tail, so each failed group's failures are printed again last, where
  // that tail has them (mocha's own list, from "N failing" on).
  for (const r of failed) console.log(`\n━━ failures of ${r.name} ━━\n${failuresOf(r.text)}`);
  if (corpusMissing && wanted.length === 0) {
    console.log(`corpus: not run, no OpenAPI corpus in ${CORPUS_PLACES.join(' or ')} (test/fixtures/openapi-corpus/README.md)`);
  }
  console.log(`total: ${total('passing')} passing, ${total('failing')} failing, ${total('pending')} pending in ${seconds(performance.now() - started)} (${jobs} groups at a time)`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

// Mocha's failure list, or the output's last 60 lines when the group died before mocha wrote one.
function failuresOf(text) {
  const at = text.search(/^\s+\d+ failing/m);
  return at >= 0 ? text.slice(at).trimEnd() : text.trimEnd().split('\n').slice(-60).join('\n');
}

// Each group's rows of { file, title, ms }, as the timing reporter wrote them (none for a group that died).
function timingsOf(scratch, results) {
  return results.flatMap((r) => {
    try {
      return JSON.parse(readFileSync(join(scratch, `${r.name}.json`), 'utf8'));
    } catch {
      return [];
    }
  });
}

function printSlowest(rows, count) {
  rows = [...rows].sort((a, b) => b.ms - a.ms);
  console.log(`\nthe ${count} slowest tests:`);
  for (const row of rows.slice(0, count)) console.log(`${String(row.ms).padStart(7)} ms  ${relative('.', row.file)}: ${row.title}`);
}

function printSlowestFiles(rows, count) {
  const byFile = new Map();
  for (const row of rows) {
    const file = byFile.get(row.file) ?? { ms: 0, tests: 0 };
    file.ms += row.ms;
    if (!/"(before|after) (all|each)" hook/.test(row.title)) file.tests++;
    byFile.set(row.file, file);
  }
  const sorted = [...byFile].sort((a, b) => b[1].ms - a[1].ms);
  console.log(`\nthe ${count} files that took longest (tests and hooks):`);
  for (const [file, { ms, tests }] of sorted.slice(0, count)) {
    console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${String(tests).padStart(4)} tests  ${relative('.', file)}`);
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exitCode = 2;
});
